/**
 * Live exclusions past the visit pass: a page captured before a pattern was added is not revisited
 * (visit–revisit). Real parts: the route handlers over a migrated
 * database (route-database.ts), the worker's CrawlManager, loopback sites.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Services } from '../../../app/lib/server/services';
import { callRoute, routeDatabase, signedInAs, startWorker, type RouteHandler } from '../../support/route-database';
import { startHoldingSite } from '../../support/holding-site';
import { until } from '../../support/engine-run';

/** The route database, an administrator's session and the worker, shared by the file's tests. */
let rig: { s: Services; admin: { cookie: string; csrf: string }; worker: Awaited<ReturnType<typeof startWorker>> } | null = null;
before(async () => {
  const services = await routeDatabase('tidemark-live-exclusions-change-');
  rig = { s: services, admin: await signedInAs(services, 'root', 'admin'), worker: await startWorker(services) };
});
after(() => rig?.worker.stop());
const db = () => rig!.s.db;

const call = <P>(handler: RouteHandler<P>, method: string, path: string, body: unknown, params: P) => callRoute(rig!.admin, handler, method, path, body, params);

/** A crawl of `fields` created through the routes (the worker picks it up); its id. */
async function createCrawl(fields: Record<string, unknown>): Promise<number> {
  const { POST: postIcd } = await import('../../../app/api/icds/route');
  const { POST: postCrawl } = await import('../../../app/api/crawls/route');
  const icd = await call(postIcd, 'POST', '/api/icds', { limits: { maxRetries: 0 }, aah: { enabled: false }, ...fields }, {});
  assert.equal(icd.status, 201, JSON.stringify(icd.body));
  const crawl = await call(postCrawl, 'POST', '/api/crawls', { icdId: icd.body.id }, {});
  assert.equal(crawl.status, 201, JSON.stringify(crawl.body));
  return crawl.body.id as number;
}

const crawlStatus = (id: number) => db().prepare('SELECT status FROM Crawl WHERE id = ?').pluck().get(id);
const appliedAt = (id: number, pattern: string) => db().prepare('SELECT appliedAt FROM CrawlExclusion WHERE crawlId = ? AND pattern = ?').pluck().get(id, pattern) as string | null | undefined;

test('a page an exclusion added during the visit pass matches is not revisited: missing, logged as exclude-match', { timeout: 90_000 }, async () => {
  const { POST: postExclusion } = await import('../../../app/api/crawls/[id]/exclusions/route');
  // The visit of /b waits for the test: the home page is captured, the revisit pass not begun.
  const site = await startHoldingSite((path, before) => path === '/b' && !before.includes('/b'));
  try {
    const id = await createCrawl({
      name: 'Revisit and a live exclusion', seeds: [`${site.origin}/`], coherence: { mode: 'visit-revisit' },
      politeness: { minDelayMs: 20, maxDelayMs: 50, delayFactor: 0, concurrency: 1, respectRobots: false },
    });
    const home = `${site.origin}/`;
    await site.held;
    await until('the home page is captured', () => db().prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(id, home) === 1, 10_000);
    // The home page only: its URL ends at the port's slash.
    const pattern = ':\\d+/$';
    const added = await call(postExclusion, 'POST', `/api/crawls/${id}/exclusions`, { pattern }, { id: String(id) });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    await until('the worker applied the exclusion', () => Boolean(appliedAt(id, pattern)), 5_000);
    site.release();
    await until('the crawl finished', () => crawlStatus(id) === 'finished', 60_000);

    assert.deepEqual(site.requested.filter((p) => p === '/'), ['/'], `the home page was visited, never revisited: ${site.requested.join(' ')}`);
    assert.deepEqual(site.requested.filter((p) => p === '/a' || p === '/b').sort(), ['/a', '/a', '/b', '/b'], 'the other pages were visited and revisited');
    const page = db().prepare('SELECT status, evidence, revisitedAt, changeRate FROM CoherencePage WHERE crawlId = ? AND url = ?').get(id, home) as { status: string; evidence: string; revisitedAt: string | null; changeRate: number | null };
    assert.deepEqual([page.status, page.evidence, page.revisitedAt !== null, page.changeRate], ['missing', 'exclude-match', true, null]);
    const log = db().prepare('SELECT outcome, status, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id').all(id, home) as { outcome: string; status: number | null; message: string }[];
    assert.deepEqual(log.map((l) => [l.outcome, l.status]), [['ok', 200], ['exclude-match', null]]);
    assert.match(log[1]!.message, /revisit not made: an exclude pattern/);
    const stats = JSON.parse(db().prepare('SELECT stats FROM Crawl WHERE id = ?').pluck().get(id) as string) as { excludedByReason: Record<string, number> };
    assert.equal(stats.excludedByReason['exclude-match'], 1, 'counted among the exclusions');
  } finally {
    site.close();
  }
});
