import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import type { HttpExchange } from '../../../worker/capture';
import { robotsCaptureMessage } from '../../../worker/robots';

/**
 * The crawl-log message of a robots.txt capture says what the crawl made of an answer that is not
 * plainly a set of rules: a body longer than the 512 KiB read, one with no rule line, a redirect
 * past the five followed. A plain answer is just "robots.txt".
 */
const RULES = 'User-agent: *\nDisallow: /private\n';

function answer(body: Buffer | string, o: { status?: number; headers?: Record<string, string>; truncated?: HttpExchange['truncated'] } = {}): HttpExchange {
  return {
    url: 'http://rules.test/robots.txt', date: new Date(0), ip: '192.0.2.1', requestHead: Buffer.alloc(0), responseHead: Buffer.alloc(0), status: o.status ?? 200,
    headers: o.headers ?? {}, body: { kind: 'memory', bytes: Buffer.from(body) }, payloadDigest: 'sha1:X', truncated: o.truncated ?? null,
  };
}

const LONGER = /; longer than the 512 KiB of it read for rules \(RFC 9309 §2\.5\): rules past them do not apply$/;

test('plain rules, an empty file, a group with an empty Disallow: just "robots.txt"', async () => {
  for (const body of [RULES, '', '\n\n', 'user-agent:*\ndisallow:']) assert.equal(await robotsCaptureMessage(answer(body)), 'robots.txt', JSON.stringify(body));
});

test('a body longer than the 512 KiB read, as it came or once decoded, says its rules past them do not apply', async () => {
  const exactly = RULES + '#'.repeat(512 * 1024 - RULES.length);
  assert.equal(await robotsCaptureMessage(answer(exactly)), 'robots.txt', 'exactly 512 KiB: all of it read');
  assert.match(await robotsCaptureMessage(answer(`${exactly}\nDisallow: /late\n`)), LONGER);
  assert.match(await robotsCaptureMessage(answer(`${exactly}\n`, { truncated: 'length' })), LONGER, 'cut at the size cap too');
  assert.match(await robotsCaptureMessage(answer(gzipSync(RULES + '\n'.repeat(4 * 1024 * 1024)), { headers: { 'content-encoding': 'gzip' } })), LONGER, 'a gzip that inflates past them');
});

test('binary garbage, or an HTML page, has no rule line: no rule disallows anything, and the message says so', async () => {
  const none = /^robots\.txt; no line of it is a rule \(User-agent, Allow, Disallow, Crawl-delay, Sitemap\): no rule disallows any URL of the host$/;
  assert.match(await robotsCaptureMessage(answer(Buffer.from('89504e470d0a1a0a0000000d4948445200', 'hex'))), none);
  assert.match(await robotsCaptureMessage(answer('<!doctype html><title>Not found</title><p>Disallow: nothing here</p>')), none);
  assert.equal(await robotsCaptureMessage(answer('<p>hi</p>\n  Disallow: /x\n')), 'robots.txt', 'a rule line among others is read');
});

test('a redirect at the sixth request in a row is past the five followed: robots.txt unavailable, said so; earlier hops are plain', async () => {
  const redirect = answer('', { status: 302, headers: { location: '/robots.txt?again' } });
  for (const hop of [0, 4]) assert.equal(await robotsCaptureMessage(redirect, hop), 'robots.txt', `hop ${hop}`);
  assert.equal(
    await robotsCaptureMessage(redirect, 5),
    'robots.txt; a redirect past the 5 in a row followed for robots.txt: taken as unavailable (RFC 9309 §2.3.1.2), so no rule disallows any URL of the host',
  );
});
