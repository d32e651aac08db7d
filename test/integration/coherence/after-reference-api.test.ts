/**
 * A URL posted during the revisit pass of a visit–revisit crawl with recrawls is visited right after
 * the pass, outside its certificate, and never revisited in that run. The coherence API showed it
 * as any page not revisited yet (status null, tree status `pending`), so the cockpit said "Revisit ·
 * not made yet"; it now says so: the tree status `after-reference`, the report's `afterReference`
 * count, GraphML's status, and the page detail's `afterReference` (from the run's reference time and
 * the page's visit time) with `referenceTime`. Real parts: the cockpit's migrated database, the
 * engine on the worker's connection, a loopback site, the route handlers as Next calls them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CoherencePageDetail, CoherenceReport, CoherenceTreePage } from '../../../worker/coherence/coherence-report';
import { buildDiscoveryTree, type TreeNode } from '../../../worker/coherence';
import { postedDuringPass, postingParts } from '../../support/posted-urls';

const p = postingParts('tm-after-reference-api-');

type Get = (req: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;

test('the coherence API says a page visited after the reference time is outside the certificate, not waiting for its revisit', { timeout: 60_000 }, async () => {
  const { site, crawlId, engine, run, posted: postedUrl } = await postedDuringPass(p);
  const { origin, requested } = site;
  try {
    const visited = () => p.worker.prepare('SELECT 1 FROM CoherencePage WHERE crawlId = ? AND url = ?').get(crawlId, postedUrl) !== undefined;
    const finished = () => p.worker.prepare('SELECT 1 FROM CoherenceRun WHERE crawlId = ? AND finishedAt IS NOT NULL').get(crawlId) !== undefined;
    for (const end = Date.now() + 20_000; !(finished() && visited()) && Date.now() < end; ) await sleep(20);
    assert.ok(finished() && visited(), `the pass finished and /posted was visited: ${requested.join(' ')}`);
  } finally {
    await engine.stop();
    await run;
    site.close();
  }

  const get = async (route: { GET: Get }, query = '') => {
    const res = await route.GET(new Request(`http://cockpit.test/api/crawls/${crawlId}/coherence${query}`, { headers: { cookie: p.admin.cookie } }), { params: Promise.resolve({ id: String(crawlId) }) });
    assert.equal(res.status, 200, query);
    return res;
  };
  const report = (await (await get(await import('../../../app/api/crawls/[id]/coherence/route'))).json()) as CoherenceReport;
  const nodes: TreeNode[] = [];
  const walk = (n: TreeNode): void => void (nodes.push(n), n.children.forEach(walk));
  const rows = (await (await get(await import('../../../app/api/crawls/[id]/coherence/tree/route'), '/tree')).json()) as CoherenceTreePage;
  buildDiscoveryTree(rows.items).forEach(walk);
  const statusOf = new Map(nodes.map((n) => [n.url, n.status]));
  // The old code: 'pending', as a page whose revisit is still to come.
  assert.equal(statusOf.get(`${origin}/posted`), 'after-reference');
  for (const path of ['/', '/a', '/b']) assert.equal(statusOf.get(`${origin}${path}`), 'unchanged', path);
  assert.equal(report.afterReference, 1);
  assert.deepEqual([report.pages, report.revisited], [4, 3]);

  const pageRoute = await import('../../../app/api/crawls/[id]/coherence/page/route');
  const detail = async (url: string) => (await (await get(pageRoute, `/page?id=${nodes.find((n) => n.url === url)!.id}`)).json()) as CoherencePageDetail;
  const posted = await detail(`${origin}/posted`);
  assert.equal(posted.afterReference, true);
  assert.equal(posted.status, null);
  assert.equal(posted.revisitedAt, null);
  assert.equal(posted.referenceTime, report.run!.referenceTime);
  assert.ok(Date.parse(posted.visitedAt) > Date.parse(posted.referenceTime!), `visited ${posted.visitedAt}, reference ${posted.referenceTime}`);
  const home = await detail(`${origin}/`);
  assert.equal(home.afterReference, false);
  assert.equal(home.status, 'unchanged');

  const graphml = await (await get(await import('../../../app/api/crawls/[id]/coherence/graphml/route'), '/graphml')).text();
  assert.match(graphml, /<data key="url">[^<]*\/posted<\/data><data key="status">after-reference<\/data>/);
});
