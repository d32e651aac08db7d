import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SqliteFrontier } from '../../../worker/frontier';
import { cand, drain, tempFrontier } from './frontier-fixture';
import { PolitenessRegistry } from '../../../worker/politeness';

test('resume after the DB was closed mid-crawl: in-flight URLs are queued again, nothing is duplicated', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  const urls = Array.from({ length: 20 }, (_, i) => `http://h${i % 3}.test/${i}`);
  f.add(1, urls.map((u, i) => cand(u, (i % 5) / 5)));
  const now = fx.clock.now();
  const leases = f.nextMany(now, 3);
  f.complete(leases[0]!, { status: 200 });
  f.fail(leases[1]!, 'dns');
  // leases[2] is never acknowledged: the process "dies" with the file closed under it.
  fx.handles[0]!.close();

  const g = fx.open();
  const c = g.counters(1);
  assert.deepEqual([c.queued, c.inFlight, c.done, c.failed], [18, 0, 1, 1]);
  assert.equal(g.lookup(1, leases[2]!.url)?.state, 'queued');
  const rest = drain(g, now);
  assert.equal(rest.length, 18);
  assert.equal(new Set([...rest, leases[0]!.url, leases[1]!.url]).size, 20, 'every URL exactly once');
  assert.equal(g.add(1, urls.map((u) => cand(u))).added, 0, 'the seen-set survived');
  g.close();
});

test('resume keeps the queue order and the politeness clocks', (t) => {
  const fx = tempFrontier({ politeness: { enabled: true, minDelayMs: 1000, maxDelayMs: 5000, delayFactor: 0 } });
  t.after(fx.cleanup);
  const f = fx.open();
  f.setHostKey('a.test', '10.0.0.9');
  f.add(1, [cand('http://a.test/1', 0.1), cand('http://a.test/2', 0.9), cand('http://a.test/3', 0.5)]);
  const now = fx.clock.now();
  f.complete(f.next(now)!, { status: 200, startedAt: now, durationMs: 100 });
  f.close();
  const g = fx.open();
  assert.equal(g.next(now + 500), null, 'the key clock of 10.0.0.9 was persisted');
  assert.equal(g.next(now + 1100)?.url, 'http://a.test/3');
  g.close();
});

test('a frontier reads the stored politeness of the hosts its crawl meets, not of every host any crawl ever visited', (t) => {
  const fx = tempFrontier({ politeness: { enabled: true, minDelayMs: 1000, maxDelayMs: 5000, delayFactor: 0 } });
  t.after(fx.cleanup);
  const first = fx.open();
  first.setHostKey('a.test', '10.0.0.9');
  first.add(1, [cand('http://a.test/1'), cand('http://b.test/1')]);
  const now = fx.clock.now();
  first.complete(first.next(now)!, { status: 200, startedAt: now, durationMs: 100 });
  first.close();
  // Hosts of crawls long gone (deleted, say): 10,000 of them.
  const db = fx.handles[0]!;
  const host = db.prepare('INSERT INTO frontier_host (host, ip_key, robots_delay_ms) VALUES (?, ?, 5000)');
  const key = db.prepare('INSERT INTO frontier_key (key, last_start_at, last_duration_ms) VALUES (?, ?, 100)');
  db.transaction(() => {
    for (let i = 0; i < 10_000; i++) (host.run(`old-${i}.test`, `10.1.${i >> 8}.${i & 255}`), key.run(`10.1.${i >> 8}.${i & 255}`, now));
  })();

  const registry = new PolitenessRegistry();
  const g = new SqliteFrontier(fx.handles[0]!, { clock: fx.clock, registry });
  g.openCrawl(1, fx.config);
  assert.equal(registry.keyOf('old-7.test'), 'old-7.test', 'a host no crawl of this frontier met is not read');
  assert.equal(registry.robotsDelayMs('old-7.test'), null);
  assert.equal(registry.timing('10.1.0.7'), null);
  assert.equal(registry.keyOf('a.test'), '10.0.0.9', 'a host of the crawl gets its stored key');
  // b.test turns out to share a.test's IP: the clock a.test's request left on it counts.
  assert.equal(g.setHostKey('b.test', '10.0.0.9'), true);
  assert.equal(g.next(now + 500), null, 'the key clock of 10.0.0.9 was read when b.test moved onto it');
  assert.equal(g.next(now + 1100)?.url, 'http://b.test/1');
  g.close();
});

test('SIGKILL: every acknowledged add and completion is there after reopening', async (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./sigkill-child.ts', import.meta.url)), fx.path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const done: string[] = [];
  let added = 0;
  let buffer = '';
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('done ')) done.push(line.slice(5));
        else if (line.startsWith('added ')) added = Number(line.slice(6));
      }
      if (done.length >= 2000 && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', () => resolve());
  });
  assert.equal(child.signalCode, 'SIGKILL');
  const f = SqliteFrontier.open(fx.path);
  t.after(() => f.close());
  f.openCrawl(1, fx.config);
  const missing = done.filter((u) => f.lookup(1, u)?.state !== 'done');
  assert.deepEqual(missing, [], 'acknowledged completions lost');
  for (let i = 1; i <= added; i += 97) assert.ok(f.lookup(1, `http://h${i % 7}.test/p${i}`), `acknowledged add of #${i} lost`);
  const c = f.counters(1);
  assert.ok(c.done >= done.length);
  assert.equal(c.inFlight, 0);
  assert.ok(c.queued + c.done >= added);
});
