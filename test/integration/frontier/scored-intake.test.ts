import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostCounters } from '../../../worker/frontier';
import {
  MAX_PENDING_SCORED_URLS, MAX_SCORED_URLS, applyScoredIntake, pendingScoredUrls, queueScoredUrls, settleScoredIntake,
} from '../../../worker/frontier/scored-intake';
import { topQueuedUrls } from '../../../worker/frontier/frontier-sql';
import { countsOf, knownUrlsInEveryState, rows, settledRows, waitingPosts } from '../../support/waiting-intake';
import { cand, drain, tempFrontier } from './frontier-fixture';

const u = (n: number) => `http://a.test/${n}`;

test('posted scores rescore queued URLs with the update function, queue new ones, and blacklist', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  const db = fx.handles[0]!;
  f.add(1, [cand(u(1), 0.6, { breakdown: JSON.stringify({ scores: { text: 0.6 }, weights: { text: 1 } }) }), cand(u(2), 0.5), cand(u(3), 0.4)]);
  queueScoredUrls(db, 1, [
    { url: u(3), score: 1, blacklist: false },
    { url: u(9), score: 0.55, blacklist: false },
    { url: u(2), score: 0, blacklist: true },
    { url: 'http://b.test/never', score: 0, blacklist: true },
  ]);
  queueScoredUrls(db, 2, [{ url: 'http://c.test/other-crawl', score: 1, blacklist: false }]);

  const outcome = applyScoredIntake(db, f, 1, 'AVG');
  assert.deepEqual(outcome, { rescored: 1, queued: 1, excluded: 2, ignored: 0 });
  // u(3): AVG of 0.4 and 1 = 0.7, now first; u(2) excluded; u(9) queued at 0.55.
  const top = topQueuedUrls(db, 1, 10);
  assert.deepEqual(top.map((r) => [r.url, +r.score.toFixed(3), r.updates]), [[u(3), 0.7, 2], [u(1), 0.6, 1], [u(9), 0.55, 1]]);
  assert.deepEqual(top[0]!.breakdown, { external: 1 }, 'the newest evidence explains the score');
  assert.deepEqual(top[1]!.breakdown, { scores: { text: 0.6 }, weights: { text: 1 } });
  assert.equal(f.lookup(1, u(2))?.state, 'excluded');
  assert.equal(f.lookup(1, u(2))?.reason, 'blacklisted');
  assert.equal(f.lookup(1, 'http://b.test/never')?.reason, 'blacklisted', 'an unknown URL is remembered as excluded');
  assert.equal(f.counters(1).excludedByReason.blacklisted, 2);

  // Applied rows are gone; the other crawl's rows stay for its own worker.
  assert.deepEqual(applyScoredIntake(db, f, 1, 'AVG'), { rescored: 0, queued: 0, excluded: 0, ignored: 0 });
  assert.equal((db.prepare('SELECT COUNT(*) AS n FROM frontier_intake WHERE crawl_id = 2').get() as { n: number }).n, 1);
  assert.deepEqual(drain(f, fx.clock.now()), [u(3), u(1), u(9)]);
  f.close();
});

test('scores posted while no worker runs the crawl are applied when it opens again', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const first = fx.open();
  first.add(1, [cand(u(1), 0.2), cand(u(2), 0.3)]);
  first.close();
  const db = fx.handles[0]!;
  queueScoredUrls(db, 1, [{ url: u(1), score: 0.9, blacklist: false }]);
  const reopened = fx.open();
  // FIRST would ignore any later score; an external score replaces it instead.
  assert.equal(applyScoredIntake(fx.handles[1]!, reopened, 1, 'FIRST').rescored, 1);
  assert.deepEqual(drain(reopened, fx.clock.now()), [u(1), u(2)]);
  reopened.close();
});

test('at most 100,000 scored URLs wait per crawl: a post past that stores nothing, and room comes back as the worker applies them', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  const db = fx.handles[0]!;
  const pending = (crawlId: number) => (db.prepare('SELECT COUNT(*) AS n FROM frontier_intake WHERE crawl_id = ?').get(crawlId) as { n: number }).n;
  // The same 10,000 URLs posted again and again (each post is evidence for the update function).
  const batch = Array.from({ length: MAX_SCORED_URLS }, (_, i) => ({ url: u(i), score: 0.5, blacklist: false }));
  for (let i = 1; i <= MAX_PENDING_SCORED_URLS / MAX_SCORED_URLS; i++) assert.deepEqual(queueScoredUrls(db, 1, batch), { stored: true, pending: i * MAX_SCORED_URLS });
  assert.deepEqual(queueScoredUrls(db, 1, batch.slice(0, 1)), { stored: false, pending: MAX_PENDING_SCORED_URLS });
  assert.equal(pending(1), MAX_PENDING_SCORED_URLS, 'the refused post stored nothing');
  assert.deepEqual(queueScoredUrls(db, 2, batch.slice(0, 3)), { stored: true, pending: 3 }, "another crawl's bound is its own");

  assert.equal(applyScoredIntake(db, f, 1, 'AVG').queued, 2_000);
  assert.deepEqual(queueScoredUrls(db, 1, batch.slice(0, 2_000)), { stored: true, pending: MAX_PENDING_SCORED_URLS });
  assert.deepEqual(queueScoredUrls(db, 1, batch.slice(0, 5), { maxPending: 10 }), { stored: false, pending: MAX_PENDING_SCORED_URLS });
  f.close();
});

test('5,000 waiting URLs settled as the crawl ends its visits: each new one excluded as its first post says, known ones changed only while queued, the counters those of the rows', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  const db = fx.handles[0]!;
  knownUrlsInEveryState(f, 1, fx.clock.now());
  const before = rows(db, 1);
  const posts = waitingPosts([...before.keys()]);
  for (let k = 0; k < posts.length; k += MAX_SCORED_URLS) queueScoredUrls(db, 1, posts.slice(k, k + MAX_SCORED_URLS));
  queueScoredUrls(db, 2, [{ url: 'http://c.test/other-crawl', score: 1, blacklist: false }]);

  const outcome = settleScoredIntake(db, f, 1, 'FIRST', 'max-pages');
  const expected = settledRows(before, posts, 'max-pages');
  const after = rows(db, 1);
  assert.equal(after.size, expected.size, 'one row per URL: none twice, none lost');
  for (const [url, row] of expected) assert.deepEqual(after.get(url), row, url);
  assert.equal(pendingScoredUrls(db, 1), 0);
  assert.equal(pendingScoredUrls(db, 2), 1, "another crawl's posts wait for its own worker");
  assert.equal(outcome.rescored + outcome.excluded + outcome.ignored, posts.length);
  assert.equal(outcome.excluded, expected.size - before.size + [...before].filter(([url, r]) => r.state !== 'excluded' && expected.get(url)!.state === 'excluded').length);

  // The frontier's counters are the rows', as a frontier opened on them afresh counts them.
  const { states, excludedByReason } = countsOf(after);
  const c = f.counters(1);
  assert.deepEqual(
    { queued: c.queued, 'in-flight': c.inFlight, retrying: c.retrying, done: c.done, failed: c.failed, excluded: c.excluded },
    { queued: 0, 'in-flight': 0, retrying: 0, done: 0, failed: 0, excluded: 0, ...states },
  );
  assert.deepEqual(c.excludedByReason, excludedByReason);
  const byHost = (hosts: HostCounters[]) => [...hosts].sort((a, b) => a.host.localeCompare(b.host));
  const hostsNow = byHost(f.hostCounters(1));
  f.close();
  const reopened = fx.open();
  assert.deepEqual(reopened.counters(1).excludedByReason, excludedByReason);
  // Reopened, the URLs left in flight are queued again.
  assert.deepEqual(byHost(reopened.hostCounters(1)), hostsNow.map((h) => ({ ...h, queued: h.queued + h.inFlight, inFlight: 0 })));
  reopened.close();
});
