import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cand, drain, tempFrontier } from './frontier-fixture';

/** Live exclusions in the frontier (SqliteFrontier.excludeMatching), on a real SQLite file. */

const a = (path: string) => `http://a.test${path}`;
const b = (path: string) => `http://b.test${path}`;

/** A frontier on a fresh file, crawl 1 open, removed after the test. */
function frontierFor(t: TestContext, cfg: Parameters<typeof tempFrontier>[0] = {}) {
  const fx = tempFrontier(cfg);
  t.after(fx.cleanup);
  return { fx, f: fx.open() };
}

for (const rescoring of [false, true]) {
  test(`excluding a pattern excludes the queued and retrying URLs it matches, leaves the rest and what is in flight (rescoring ${rescoring})`, async (t) => {
    const { fx, f } = frontierFor(t, { rescoring });
    const days = Array.from({ length: 40 }, (_, k) => a(`/calendar?day=${k}`));
    // Interleaved with ordinary pages, some of them held in the host's first URLs.
    f.add(1, [cand(a('/'), 0.9), ...days.map((d, k) => cand(d, k % 2 ? 0.6 : 0.4)), cand(a('/about'), 0.5), cand(b('/calendar?day=1'), 0.7), cand(b('/x'), 0.3)]);
    const inFlight = f.next(fx.clock.now())!;
    assert.equal(inFlight.url, a('/'));
    // One day leased, failed and waiting to be retried.
    const first = f.next(fx.clock.now())!;
    assert.equal(first.url, b('/calendar?day=1'));
    f.fail(first, 'http-5xx', { retryAt: fx.clock.now() + 10 });
    const before = f.counters(1);

    const n = f.excludeMatching(1, '/calendar\\?day=\\d+$', 'exclude-match');
    assert.equal(n, 41, 'the 40 queued days of a.test and the retrying day of b.test');
    const after = f.counters(1);
    assert.equal(after.queued, before.queued - 40);
    assert.equal(after.retrying, 0);
    assert.equal(after.excluded, before.excluded + 41);
    assert.equal(after.excludedByReason['exclude-match'], 41);
    assert.equal(after.inFlight, 1, 'the URL in flight stays in flight');
    for (const d of [...days, b('/calendar?day=1')]) assert.deepEqual([f.lookup(1, d)?.state, f.lookup(1, d)?.reason], ['excluded', 'exclude-match'], d);

    // The URL in flight finishes; what is left is crawled, in order, without a day.
    assert.equal(f.complete(inFlight, { status: 200, durationMs: 0 }), true);
    await fx.clock.advance(1_000);
    assert.deepEqual(drain(f, fx.clock.now()), [a('/about'), b('/x')]);

    // URLs offered from now on that match are recorded as excluded, with the same reason.
    const added = f.add(1, [cand(a('/calendar?day=99')), cand(a('/contact'))]);
    assert.deepEqual([added.added, added.budgetExcluded], [1, 1]);
    assert.deepEqual([f.lookup(1, a('/calendar?day=99'))?.state, f.lookup(1, a('/calendar?day=99'))?.reason], ['excluded', 'exclude-match']);
    assert.deepEqual(drain(f, fx.clock.now()), [a('/contact')]);
    assert.equal(f.counters(1).queued, 0);
    f.close();
  });
}

test('a pattern that matches nothing changes nothing', (t) => {
  const { fx, f } = frontierFor(t);
  f.add(1, [cand(a('/1')), cand(a('/2'))]);
  assert.equal(f.excludeMatching(1, '^https://', 'exclude-match'), 0);
  assert.deepEqual(drain(f, fx.clock.now()), [a('/1'), a('/2')]);
  f.close();
});

test('testing a pattern counts the waiting URLs it matches, queued or retrying, and lists the first in discovery order', async (t) => {
  const { waitingUrlsMatching } = await import('../../../worker/frontier/waiting-matches');
  const { openSqlite } = await import('../../../worker/store/sqlite');
  const { fx, f } = frontierFor(t);
  // Discovered in this order; priorities scramble the queue's own order.
  const days = Array.from({ length: 30 }, (_, k) => a(`/calendar?day=${k}`));
  f.add(1, [cand(a('/calendar?day=done'), 1), cand(b('/calendar?day=retry'), 0.95), ...days.map((d, k) => cand(d, (k * 7) % 10 / 10)), cand(a('/about'))]);
  const done = f.next(fx.clock.now())!;
  assert.equal(done.url, a('/calendar?day=done'));
  f.complete(done, { status: 200, durationMs: 0 });
  const retry = f.next(fx.clock.now())!;
  assert.equal(retry.url, b('/calendar?day=retry'));
  f.fail(retry, 'http-5xx', { retryAt: fx.clock.now() + 60_000 });
  // The server reads on a connection of its own.
  const server = openSqlite(fx.path);
  t.after(() => server.close());
  const tested = waitingUrlsMatching(server, 1, '/calendar\\?day=', 20);
  assert.equal(tested.matching, 31, 'the 30 queued days and the retrying one, not the fetched one');
  assert.deepEqual(tested.examples, [b('/calendar?day=retry'), ...days.slice(0, 19)]);
  assert.deepEqual([tested.tested, tested.partial], [32, false], 'every waiting URL looked at');
  assert.deepEqual(waitingUrlsMatching(server, 1, '^ftp:', 20), { matching: 0, examples: [], tested: 32, partial: false, waiting: 32, hosts: 1, hostsTested: 1, moreHostsAfter: null });
  assert.deepEqual(waitingUrlsMatching(server, 2, '/calendar', 20), { matching: 0, examples: [], tested: 0, partial: false, waiting: 0, hosts: 0, hostsTested: 0, moreHostsAfter: null }, 'another crawl');
  // Bounded (it runs on the server's thread): the retrying URL first, then queued ones; at least that many match.
  const bounded = waitingUrlsMatching(server, 1, '/calendar\\?day=', 5, 10);
  assert.deepEqual([bounded.tested, bounded.partial], [10, true]);
  assert.ok(bounded.matching >= 9 && bounded.matching <= 10, `${bounded.matching} of the 10 looked at`);
  assert.equal(bounded.examples[0], b('/calendar?day=retry'));
  assert.equal(bounded.examples.length, 5);
  assert.deepEqual(waitingUrlsMatching(server, 1, '/calendar\\?day=', 5, 32).partial, false, 'exactly as many as wait: all looked at');
  f.close();
});

test('testing a pattern with more URLs waiting than it looks at spreads what it looks at over every host, not the first hosts of the queue index', async (t) => {
  const { waitingUrlsMatching } = await import('../../../worker/frontier/waiting-matches');
  const { openSqlite } = await import('../../../worker/store/sqlite');
  const { fx, f } = frontierFor(t);
  // a.test, first in the queue index's order, holds most of the queue; the calendar is on z.test.
  const host = (name: string, paths: string[]) => paths.map((p) => cand(`http://${name}${p}`));
  f.add(1, [
    ...host('a.test', Array.from({ length: 300 }, (_, k) => `/page/${k}`)),
    ...host('m.test', Array.from({ length: 5 }, (_, k) => `/page/${k}`)),
    ...host('z.test', Array.from({ length: 100 }, (_, k) => `/calendar?day=${k}`)),
  ]);
  const server = openSqlite(fx.path);
  t.after(() => server.close());
  const tested = waitingUrlsMatching(server, 1, '/calendar\\?day=', 5, 100);
  // m.test's 5, then 48 and 47: a.test and z.test both hold more than their share, so which takes
  // the extra one is the queue index's order (knowing which queue is smaller would mean counting both
  // whole). The queues are counted as far as the shares need: 49, 5 and 49 of the 405 waiting.
  assert.deepEqual({ ...tested, examples: tested.examples.length }, { matching: 47, examples: 5, tested: 100, partial: true, waiting: 103, hosts: 3, hostsTested: 3, moreHostsAfter: null }, 'm.test\'s 5, then 48 and 47');
  assert.ok(tested.examples.every((u) => u.startsWith('http://z.test/calendar?day=')));
  // More hosts than URLs looked at: one URL of hosts spread across the list (a.test and z.test of the three).
  const many = waitingUrlsMatching(server, 1, '^http://z\\.test/', 5, 2);
  assert.deepEqual([many.matching, many.tested, many.hostsTested], [1, 2, 2]);
  f.close();
});

test('a retrying URL excluded leaves no wake-up behind: a crawl with nothing else to do may end at once', (t) => {
  const { fx, f } = frontierFor(t);
  f.add(1, [cand(a('/calendar?day=1')), cand(a('/about'))]);
  const day = f.next(fx.clock.now())!;
  f.fail(day, 'http-5xx', { retryAt: fx.clock.now() + 600_000 });
  assert.deepEqual(drain(f, fx.clock.now()), [a('/about')]);
  assert.equal(f.nextWakeAt(), fx.clock.now() + 600_000, 'the retry is due in ten minutes');
  assert.equal(f.excludeMatching(1, '/calendar', 'exclude-match'), 1);
  // The engine ends a crawl when nothing waits and the frontier has no wake-up: it waited ten minutes for nothing.
  assert.equal(f.nextWakeAt(), null);
  f.close();
});

test('a live exclusion removed: URLs offered from then on that match are queued again, those it excluded stay excluded', (t) => {
  const { fx, f } = frontierFor(t);
  f.add(1, [cand(a('/calendar?day=1')), cand(a('/about'))]);
  assert.equal(f.excludeMatching(1, '/calendar', 'exclude-match'), 1);
  f.add(1, [cand(a('/calendar?day=2'))]);
  assert.deepEqual([f.lookup(1, a('/calendar?day=2'))?.state, f.lookup(1, a('/calendar?day=2'))?.reason], ['excluded', 'exclude-match'], 'offered while it applies');
  f.stopExcludingMatching(1, '/calendar');
  f.stopExcludingMatching(1, '/never-added');
  f.add(1, [cand(a('/calendar?day=3')), cand(a('/calendar?day=1'))]);
  assert.deepEqual(drain(f, fx.clock.now()), [a('/about'), a('/calendar?day=3')]);
  for (const day of [1, 2]) assert.equal(f.lookup(1, a(`/calendar?day=${day}`))?.state, 'excluded', `day ${day} stays excluded`);
  f.close();
});

test('testing a pattern reads what it looks at, not every queued URL: 100,000 queued on 10 hosts, the queue index read only in part', async (t) => {
  const { waitingUrlsMatching } = await import('../../../worker/frontier/waiting-matches');
  const { openSqlite } = await import('../../../worker/store/sqlite');
  const { fx, f } = frontierFor(t);
  f.close();
  const db = openSqlite(fx.path);
  t.after(() => db.close());
  const insert = db.prepare("INSERT INTO frontier_url (crawl_id, url_hash, url, host, depth, kind, state, precedence, score_raw, score_count, score_sum, discovered_at) VALUES (1, ?, ?, ?, 0, 'link', 0, ?, 0, 0, 0, 0)");
  db.transaction(() => {
    for (let i = 0; i < 100_000; i++) {
      const host = `h${i % 10}.test`;
      insert.run(i + 1, `http://${host}/page/${i}`, host, (i % 997) / 997);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  const indexPages = db.prepare("SELECT COUNT(*) FROM dbstat WHERE name = 'frontier_url_queue'").pluck().get() as number;
  // Pages SQLite reads from the file, as read system calls of this process (the call is synchronous:
  // nothing else runs): a page cache that holds the B-trees' inner pages, not the queue index's leaves.
  db.pragma('cache_size = 64');
  const reads = () => Number(/syscr: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
  const before = reads();
  const tested = waitingUrlsMatching(db, 1, '/page/1\\d*$', 20, 100);
  const read = reads() - before;
  assert.deepEqual([tested.tested, tested.partial, tested.hosts, tested.hostsTested], [100, true, 10, 10]);
  assert.ok(tested.matching <= 100);
  assert.ok(indexPages > 300, `the queue index: ${indexPages} pages`);
  // 10 hosts looked up, their queues counted to 11 and 10 URLs of each read (their rows too): a few
  // pages each, where counting every queue read every page of the index.
  assert.ok(read < indexPages / 3, `${read} reads, the queue index holds ${indexPages} pages`);
});
