import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import type { FetchOutcome } from '../../../worker/fetch';
import { RobotsCache } from '../../../worker/robots';
import { SqliteRobotsAnswerStore } from '../../../worker/crawler/robots-answer-store';

/**
 * The robots cache's answers kept in a crawl's SQLite state and read back by a later run's cache
 * (a new RobotsCache on the same database, as a resumed crawl makes), on an injectable clock:
 * fetchRobots answers from a script and counts the fetches.
 */
const ORIGIN = 'http://site.test';
const DAY = 86_400_000;
const RULES = 'User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: /sitemap.xml\n';

function answered(status: number, text = ''): FetchOutcome {
  const exchange = {
    url: `${ORIGIN}/robots.txt`, date: new Date(0), ip: '192.0.2.1', requestHead: Buffer.alloc(0), responseHead: Buffer.alloc(0), status,
    headers: {}, body: { kind: 'memory' as const, bytes: Buffer.from(text) }, payloadDigest: 'sha1:X', truncated: null,
  };
  return status >= 500 ? { ok: false, reason: 'http-5xx', message: `HTTP ${status}`, durationMs: 1, retries: 0, partial: exchange } : { ok: true, exchange, durationMs: 1, retries: 0 };
}

/** One run of a crawl: a cache on `db`'s store for crawl `crawlId`, whose fetches return `script`'s outcomes in turn (the last again when it runs out). */
function run(db: Database.Database, clock: { now: number }, script: FetchOutcome[], o: { crawlId?: number; mayKeep?: () => boolean; maxAgeMs?: number } = {}) {
  const seen = { fetches: 0, sitemaps: [] as string[][] };
  const robots = new RobotsCache({
    userAgent: 'Tidemark/0.1', enabled: true, ignoreFor: [], maxAttempts: 3, backoff: { baseMs: 1000, maxMs: 10_000 },
    now: () => clock.now, random: () => 0.5,
    fetchRobots: async () => script[Math.min(seen.fetches++, script.length - 1)]!,
    onSitemaps: (_origin, urls) => void seen.sitemaps.push(urls),
    answers: new SqliteRobotsAnswerStore(db, o.crawlId ?? 1, o.mayKeep),
    maxAgeMs: o.maxAgeMs,
  });
  return { robots, seen };
}

test('rules read by one run answer the next: the same verdicts and Crawl-delay, no fetch, no sitemap handed on again', async () => {
  const db = new Database(':memory:');
  const clock = { now: 1_000_000 };
  const first = run(db, clock, [answered(200, RULES)]);
  assert.deepEqual(await first.robots.check(`${ORIGIN}/private/a`), { allowed: false, reason: 'robots-disallowed', crawlDelayMs: 2000 });
  assert.deepEqual(first.seen.sitemaps, [[`${ORIGIN}/sitemap.xml`]]);

  clock.now += DAY - 1;
  const second = run(db, clock, [answered(200, 'User-agent: *\nDisallow: /\n')]);
  assert.deepEqual(await second.robots.check(`${ORIGIN}/private/b`), { allowed: false, reason: 'robots-disallowed', crawlDelayMs: 2000 });
  assert.deepEqual(await second.robots.check(`${ORIGIN}/open`), { allowed: true, crawlDelayMs: 2000 });
  assert.equal(second.seen.fetches, 0, 'answered from the kept rules');
  assert.deepEqual(second.seen.sitemaps, [], 'its Sitemap: lines were handed on by the run that read it');
  assert.deepEqual(second.robots.sitemapsFor(`${ORIGIN}/x`), [`${ORIGIN}/sitemap.xml`]);

  // A day after it was read: fetched again, and the new rules kept in its place.
  clock.now += 1;
  assert.deepEqual(await second.robots.check(`${ORIGIN}/open`), { allowed: false, reason: 'robots-disallowed' });
  assert.equal(second.seen.fetches, 1);
  const third = run(db, clock, [answered(200, RULES)]);
  assert.deepEqual(await third.robots.check(`${ORIGIN}/open`), { allowed: false, reason: 'robots-disallowed' });
  assert.equal(third.seen.fetches, 0);
});

test('allow-all (4xx) and disallow-all (unreachable through its tries) are kept too; a robots.txt still being tried is not', async () => {
  const db = new Database(':memory:');
  const clock = { now: 1_000_000 };
  const missing = run(db, clock, [answered(404)]);
  assert.deepEqual(await missing.robots.check(`${ORIGIN}/a`), { allowed: true });
  const afterMissing = run(db, clock, [answered(500)]);
  assert.deepEqual(await afterMissing.robots.check(`${ORIGIN}/b`), { allowed: true });
  assert.equal(afterMissing.seen.fetches, 0);

  const other = 'http://down.test';
  const failing = run(db, clock, [answered(503)]);
  const first = await failing.robots.check(`${other}/a`);
  assert.equal(first.reason, 'robots-retry');
  // A new run while robots.txt waits for its second try: nothing was kept, it is tried at once.
  const meanwhile = run(db, clock, [answered(503)]);
  assert.equal((await meanwhile.robots.check(`${other}/a`)).reason, 'robots-retry');
  assert.equal(meanwhile.seen.fetches, 1);
  clock.now = first.retryAt!;
  clock.now = (await failing.robots.check(`${other}/a`)).retryAt!;
  assert.deepEqual(await failing.robots.check(`${other}/a`), { allowed: false, reason: 'robots-unavailable' });
  assert.equal(failing.seen.fetches, 3);
  const afterFailing = run(db, clock, [answered(200, '')]);
  assert.deepEqual(await afterFailing.robots.check(`${other}/b`), { allowed: false, reason: 'robots-unavailable' });
  assert.equal(afterFailing.seen.fetches, 0);
});

test('rules kept after a refresh that failed stand for the hour until it is tried again, in the next run too', async () => {
  const db = new Database(':memory:');
  const clock = { now: 1_000_000 };
  const first = run(db, clock, [answered(200, RULES), answered(503)]);
  await first.robots.check(`${ORIGIN}/a`);
  clock.now += DAY;
  // The refresh gets a 503: the rules read before stay (RFC 9309 §2.4), tried again in an hour.
  assert.equal((await first.robots.check(`${ORIGIN}/private/a`)).reason, 'robots-disallowed');
  assert.equal(first.seen.fetches, 2);
  clock.now += 3_600_000 - 1;
  const second = run(db, clock, [answered(404)]);
  assert.equal((await second.robots.check(`${ORIGIN}/private/a`)).reason, 'robots-disallowed');
  assert.equal(second.seen.fetches, 0, 'within the hour: the kept rules, not a fetch');
  clock.now += 1;
  assert.deepEqual(await second.robots.check(`${ORIGIN}/private/a`), { allowed: true });
  assert.equal(second.seen.fetches, 1);
});

test('a stale answer is as none kept: a refresh that fails is tried again, as a first fetch is, not met with the old rules', async () => {
  const db = new Database(':memory:');
  const clock = { now: 1_000_000 };
  await run(db, clock, [answered(200, RULES)]).robots.check(`${ORIGIN}/a`);
  clock.now += DAY;
  const later = run(db, clock, [answered(503)]);
  assert.equal((await later.robots.check(`${ORIGIN}/open`)).reason, 'robots-retry');
  assert.equal(later.seen.fetches, 1);
});

test('an answer kept for longer than this run\'s max age allows is not used', async () => {
  const db = new Database(':memory:');
  const clock = { now: 1_000_000 };
  await run(db, clock, [answered(200, RULES)]).robots.check(`${ORIGIN}/a`);
  clock.now += 1000;
  // Kept for a day, read back by a run whose answers hold at most an hour (and a minute of clock slack).
  const shorter = run(db, clock, [answered(404)], { maxAgeMs: 3_600_000 });
  assert.deepEqual(await shorter.robots.check(`${ORIGIN}/private/a`), { allowed: true });
  assert.equal(shorter.seen.fetches, 1);
});

test('answers are kept per crawl, and none while keeping is refused (a capture commit was refused)', async () => {
  const db = new Database(':memory:');
  const clock = { now: 1_000_000 };
  await run(db, clock, [answered(200, RULES)], { crawlId: 1 }).robots.check(`${ORIGIN}/a`);
  const otherCrawl = run(db, clock, [answered(404)], { crawlId: 2 });
  assert.deepEqual(await otherCrawl.robots.check(`${ORIGIN}/private/a`), { allowed: true });
  assert.equal(otherCrawl.seen.fetches, 1);

  await run(db, clock, [answered(200, RULES)], { crawlId: 3, mayKeep: () => false }).robots.check(`${ORIGIN}/a`);
  const next = run(db, clock, [answered(404)], { crawlId: 3 });
  await next.robots.check(`${ORIGIN}/a`);
  assert.equal(next.seen.fetches, 1, 'nothing was kept: fetched again');
});
