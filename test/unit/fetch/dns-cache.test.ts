import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDnsCache } from '../../../worker/fetch';
import { systemLookupName } from '../../../worker/fetch/dns-cache';

test('answers are cached for the TTL, then looked up again', async () => {
  let now = 0;
  const calls: string[] = [];
  const dns = createDnsCache({ lookup: async (h) => (calls.push(h), '192.0.2.1'), ttlMs: 1000, now: () => now });
  assert.deepEqual(await dns.resolveHost('Example.ORG'), { ip: '192.0.2.1' });
  now = 999;
  await dns.resolveHost('example.org');
  assert.equal(calls.length, 1);
  now = 1000;
  await dns.resolveHost('example.org');
  assert.deepEqual(calls, ['example.org', 'example.org']);
});

test('concurrent callers share one lookup', async () => {
  let calls = 0;
  const dns = createDnsCache({ lookup: async () => (calls++, '192.0.2.2') });
  const results = await Promise.all([dns.resolveHost('a.test'), dns.resolveHost('a.test'), dns.resolveHost('a.test')]);
  assert.equal(calls, 1);
  assert.ok(results.every((r) => 'ip' in r && r.ip === '192.0.2.2'));
});

test('failures are remembered for the negative TTL', async () => {
  let now = 0;
  let calls = 0;
  const dns = createDnsCache({ lookup: async () => (calls++, Promise.reject(new Error('ENOTFOUND'))), negativeTtlMs: 100, now: () => now });
  assert.deepEqual(await dns.resolveHost('gone.test'), { error: 'ENOTFOUND' });
  await dns.resolveHost('gone.test');
  assert.equal(calls, 1);
  now = 100;
  await dns.resolveHost('gone.test');
  assert.equal(calls, 2);
});

test('IP literals (IPv6 in brackets too) need no lookup', async () => {
  const dns = createDnsCache({ lookup: async () => assert.fail('no lookup expected') });
  assert.deepEqual(await dns.resolveHost('203.0.113.7'), { ip: '203.0.113.7' });
  assert.deepEqual(await dns.resolveHost('[2001:db8::1]'), { ip: '2001:db8::1' });
});

test('a lookup that hangs ends at the timeout', async () => {
  const dns = createDnsCache({ lookup: () => new Promise<string>(() => undefined), timeoutMs: 20 });
  const result = await dns.resolveHost('slow.test');
  assert.ok('error' in result && /dns timeout/.test(result.error), JSON.stringify(result));
});

test('a name under .localhost is looked up as localhost (RFC 6761), any other as it is', () => {
  for (const name of ['xn--bcher-kva.localhost', 'App.LOCALHOST', 'a.b.localhost.']) assert.equal(systemLookupName(name), 'localhost', name);
  for (const name of ['localhost', 'example.org', 'localhost.example.org', 'notlocalhost', '127.0.0.1']) assert.equal(systemLookupName(name), name, name);
});

// A carry-over of the clock helper: answers were kept by the wall clock, so one set back an hour
// (NTP, `date -s`) kept a host's address, or its failure, an hour past its TTL.
test('an answer expires after its TTL on the monotonic clock, whatever a step of the wall clock says', async () => {
  // A wall clock whose steps reach code that took Date.now before them, as a step of the system's clock does.
  const systemNow = Date.now;
  let stepMs = 0;
  Date.now = () => systemNow() + stepMs;
  try {
    let lookups = 0;
    const cache = createDnsCache({ ttlMs: 20, negativeTtlMs: 20, lookup: async () => `10.0.0.${++lookups}` });
    assert.deepEqual(await cache.resolveHost('moving.test'), { ip: '10.0.0.1' });
    stepMs = -3_600_000;
    await new Promise((r) => setTimeout(r, 40));
    assert.deepEqual(await cache.resolveHost('moving.test'), { ip: '10.0.0.2' }, 'looked up again after its TTL');
  } finally {
    Date.now = systemNow;
  }
});
