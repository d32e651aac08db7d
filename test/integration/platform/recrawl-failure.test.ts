/**
 * A recrawl round that fails is recorded where the archivist sees it: its failure (when, why, when
 * it is tried again) in the round history, an entry in the crawl log (one for failures in a row with
 * the same error), and the "Feeds and recrawls" section's data through GET /api/crawls/:id/incremental;
 * a restarted engine waits for the stored retry time instead of retrying at once, and the round that
 * then finishes says it failed before, in the section and in the crawl log.
 * Real parts: a migrated SQLite database in a temporary data folder, the engine on a shortened
 * minute, a loopback site, the route handlers as Next calls them. The round fails on a real SQLite
 * error: a trigger refuses the round's first write, the pages it takes up, as a constraint would
 * (before any refetch: a refusal of what a refetch stores refuses its capture too, which pauses the
 * crawl, recrawl-save-failure.test.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import type { IncrementalView } from '../../../worker/coherence/incremental-view';
import { ROUND_OUTCOMES, type RoundFailure } from '../../../worker/crawler/recrawl-history';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { RecrawlState } from '../../../worker/crawler/recrawl-round';
import { icdSchema } from '../../../worker/icd/schema';
import type { Services } from '../../../app/lib/server/services';
import * as incremental from '../../../app/api/crawls/[id]/incremental/route';
import * as crawlLog from '../../../app/api/crawls/[id]/log/route';
import * as report from '../../../app/api/crawls/[id]/report/route';
import * as crawlRoute from '../../../app/api/crawls/[id]/route';
import { routeDatabase, signedInAs } from '../../support/route-database';
import { insertCrawl } from '../../support/crawl-rows';
import { withSite } from '../../support/site-crawl';
import { runUntil } from '../../support/engine-run';

const ORIGIN = 'http://cockpit.test';
/**
 * Long enough that a restart right after a failure comes well before the retry (a minute later),
 * after the checks between them: with three test files at a time, 3 s was once too short for them.
 */
const MINUTE_MS = 6_000;
const REFUSAL = "the round's result was refused";

let services: Services;
let cookie = '';
let manager = { cookie: '', csrf: '' };
/** Every request of the site: path and when it came. */
const requests: { path: string; at: number }[] = [];

/** Two pages under a home page; /a changes at every request. */
const listener: RequestListener = (req, res) => {
  const path = req.url ?? '/';
  requests.push({ path, at: Date.now() });
  const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title>${body}`);
  if (path === '/') return html('<a href="/a">a</a> <a href="/b">b</a>');
  if (path === '/a') return html(`<p>${requests.length}</p>`);
  if (path === '/b') return html('<p>the same</p>');
  res.writeHead(404).end();
};

before(async () => {
  services = await routeDatabase('tidemark-recrawl-failure-');
  cookie = (await signedInAs(services, 'curator', 'curator')).cookie;
  manager = await signedInAs(services, 'manager', 'manager');
});

after(async () => {
  await services?.prisma.$disconnect();
  services?.db.close();
  if (services) rmSync(services.env.dataDir, { recursive: true, force: true });
});

async function get<T>(route: { GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> }, crawlId: number, query = ''): Promise<T> {
  const res = await route.GET(new Request(`${ORIGIN}/api/crawls/${crawlId}/x${query}`, { headers: { host: 'cockpit.test', cookie } }), { params: Promise.resolve({ id: String(crawlId) }) });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as T;
}

interface CrawlLogPage {
  items: { url: string; status: number | null; outcome: string; message: string | null; retries: number; at: string }[];
  outcomes: { outcome: string; count: number }[];
}

test('a failed round is stored, logged and shown; a restart waits for its retry time, and the round that finishes says it failed', { timeout: 90_000 }, () => withSite(listener, async (origin) => {
  const { db } = services;
  const icd = icdSchema.parse({ name: 'Failing rounds', seeds: [`${origin}/`], politeness: { enabled: false }, aah: { enabled: false }, coherence: { recrawlIntervalMinutes: 1 } });
  const crawlId = insertCrawl(db, icd);
  db.prepare("UPDATE Crawl SET status = 'running' WHERE id = ?").run(crawlId);
  // The engine's tables, made as the engine makes them, so the trigger has its table.
  new RecrawlState(db, crawlId);
  db.exec(`CREATE TRIGGER refuse_round_result BEFORE INSERT ON engine_recrawl_page BEGIN SELECT RAISE(ABORT, '${REFUSAL.replace(/'/g, "''")}'); END`);
  const failure = () => db.prepare('SELECT round, failures, first_failed_at AS firstFailedAt, failed_at AS failedAt, message, url, retry_at AS retryAt FROM engine_recrawl_failure WHERE crawl_id = ?').get(crawlId) as RoundFailure | undefined;
  const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(process.env.TIDEMARK_DATA_DIR!, 'warcs'), spoolDir: join(process.env.TIDEMARK_DATA_DIR!, 'spool'), minuteMs: MINUTE_MS });

  // Round 1 fails at its first refetch, and again a minute later.
  const first = engine();
  await runUntil(first, 'round 1 failed twice', () => (failure()?.failures ?? 0) >= 2);
  const stored = failure()!;
  assert.equal(stored.round, 1);
  assert.equal(stored.failures, 2);
  assert.equal(stored.message, REFUSAL);
  assert.equal(stored.url, null, 'the round failed before its first page');
  assert.equal(stored.retryAt, stored.failedAt + MINUTE_MS, 'tried again a minute after the last failure');
  assert.ok(stored.firstFailedAt <= stored.failedAt - MINUTE_MS, 'the second failure came a minute after the first');
  assert.deepEqual(first.incremental?.rounds, [], 'no round finished');

  // The crawl log: one entry for the failures in a row with the same error, under the first seed (no page yet),
  // at the first one's time, counting the others as retries, with the reason and the retry time.
  const iso = (ms: number) => new Date(ms).toISOString();
  let log = await get<CrawlLogPage>(crawlLog, crawlId, '?outcome=recrawl-round-failed');
  assert.deepEqual(log.items.map((e) => [e.url, e.status, e.outcome, e.retries, e.at]), [[`${origin}/`, null, 'recrawl-round-failed', 1, iso(stored.firstFailedAt)]]);
  assert.equal(log.items[0]!.message, `recrawl round 1 failed 2 times in a row, the last at ${iso(stored.failedAt)}: ${REFUSAL}; tried again from ${iso(stored.retryAt!)}`);
  assert.deepEqual(log.outcomes.find((o) => o.outcome === 'recrawl-round-failed'), { outcome: 'recrawl-round-failed', count: 1 });

  // The section: the failure, and the round's retry as the next round.
  db.prepare("UPDATE Crawl SET status = 'paused' WHERE id = ?").run(crawlId);
  let v = await get<IncrementalView>(incremental, crawlId);
  assert.deepEqual(v.recrawl?.failure, { round: 1, failures: 2, firstFailedAt: iso(stored.firstFailedAt), failedAt: iso(stored.failedAt), message: REFUSAL, url: stored.url, retryAt: iso(stored.retryAt!) });
  assert.equal(v.recrawl?.lastRound, 0);
  assert.equal(v.recrawl?.nextRound.state, 'not-running', 'a paused crawl does not try it');
  db.prepare("UPDATE Crawl SET status = 'running' WHERE id = ?").run(crawlId);
  v = await get<IncrementalView>(incremental, crawlId);
  // The interval (in the route's real minutes) from the initial crawl's end is later than the retry.
  assert.equal(v.recrawl?.nextRound.state, 'scheduled');
  assert.equal(v.recrawl?.failure?.retryAt, iso(stored.retryAt!));

  // Restarted with the refusal gone: nothing of the round before the stored retry time, then it finishes.
  db.exec('DROP TRIGGER refuse_round_result');
  const restartedAt = Date.now();
  assert.ok(restartedAt < stored.retryAt! - 500, 'restarted well before the retry time');
  const second = engine();
  await runUntil(second, 'round 1 finished', () => (second.incremental?.rounds.length ?? 0) >= 1);
  const afterRestart = requests.filter((r) => r.at >= restartedAt);
  assert.ok(afterRestart.length >= 3, `the round refetched the pages: ${JSON.stringify(afterRestart)}`);
  assert.ok(afterRestart.every((r) => r.at >= stored.retryAt!), `no request before the stored retry time ${stored.retryAt}: ${JSON.stringify(afterRestart)}`);
  for (const outcome of ROUND_OUTCOMES) assert.ok(!(outcome in second.stats().failedByReason), `${outcome} is no failed URL`);

  v = await get<IncrementalView>(incremental, crawlId);
  assert.equal(v.recrawl?.failure, null, 'nothing pending once the round finished');
  const round1 = v.recrawl?.rounds.find((r) => r.round === 1);
  assert.deepEqual([round1?.failures, round1?.lastFailure], [2, { at: iso(stored.failedAt), message: REFUSAL }]);
  // The crawl log says it too, at the round's end; no host counts the rounds' entries as fetches.
  log = await get<CrawlLogPage>(crawlLog, crawlId, '?outcome=recrawl-round-recovered');
  assert.deepEqual(log.items.map((e) => [e.url, e.status, e.outcome, e.retries, e.at]), [[`${origin}/`, null, 'recrawl-round-recovered', 2, round1!.finishedAt]]);
  assert.equal(log.items[0]!.message, `recrawl round 1 finished after 2 failed attempts (the first at ${iso(stored.firstFailedAt)}, the last at ${iso(stored.failedAt)}; the last error: ${REFUSAL})`);
  const { hosts } = await get<{ hosts: { fetches: number }[] }>(report, crawlId);
  const fetches = db.prepare(`SELECT COUNT(*) FROM CrawlLogEntry WHERE crawlId = ? AND outcome NOT IN (${ROUND_OUTCOMES.map(() => '?').join(', ')})`).pluck().get(crawlId, ...ROUND_OUTCOMES);
  assert.equal(hosts.reduce((n, h) => n + h.fetches, 0), fetches);

  // Deleted with the crawl (a crawl a worker runs is not).
  db.prepare("UPDATE Crawl SET status = 'stopped' WHERE id = ?").run(crawlId);
  const headers = { host: 'cockpit.test', origin: ORIGIN, cookie: manager.cookie, 'x-csrf-token': manager.csrf };
  const deleted = await crawlRoute.DELETE(new Request(`${ORIGIN}/api/crawls/${crawlId}`, { method: 'DELETE', headers }), { params: Promise.resolve({ id: String(crawlId) }) });
  assert.equal(deleted.status, 204);
  await services.crawlDeletions.wake(); // the rows go after the answer
  assert.equal(db.prepare('SELECT COUNT(*) FROM engine_recrawl_failure WHERE crawl_id = ?').pluck().get(crawlId), 0);
}));
