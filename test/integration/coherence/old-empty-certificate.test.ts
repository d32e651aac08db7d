/**
 * A certificate written before stop 35 for a visit–revisit run over no page says coherence 1 and
 * blur 0, and so does its run's stored summary. The cockpit now serves and reports them as a new
 * one is written (null, with the reason) and leaves the stored file as it is, byte for byte: it may
 * be hard-linked into exports whose file lists carry its sha256.
 *
 * Real parts: the route handlers over a migrated SQLite database and the certificate file in the
 * crawl's WARC folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { callRoute, routeDatabase, signedInAs, type RouteHandler } from '../../support/route-database';
import { insertCrawl } from '../../support/crawl-rows';
import { icdSchema } from '../../../worker/icd/schema';
import { crawlWarcDir } from '../../../worker/store/data-layout';
import { sqlDate } from '../../../worker/store/sqlite';
import type { CoherenceReport } from '../../../worker/coherence/coherence-report';

const OLD_SUMMARY = { pages: 0, byStatus: { unchanged: 0, 'content-changed': 0, 'links-changed': 0, missing: 0 }, coherence: 1, blur: 0, referenceTime: '2026-11-20T10:00:00.000Z' };
const NULL_SUMMARY = { ...OLD_SUMMARY, coherence: null, blur: null, unmeasured: { coherence: 'no page was visited and revisited', blur: 'no page was visited and revisited' } };

test('an old certificate of a run over no page: served and reported with null coherence and blur, its file unchanged', async () => {
  const s = await routeDatabase('tidemark-old-empty-certificate-');
  const curator = await signedInAs(s, 'cora', 'curator');
  const crawlId = insertCrawl(s.db, icdSchema.parse({ name: 'Nothing to revisit', seeds: ['http://127.0.0.1:9/'], coherence: { mode: 'visit-revisit' } }));
  s.db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
  const at = new Date(OLD_SUMMARY.referenceTime);
  s.db.prepare('INSERT INTO CoherenceRun (crawlId, referenceTime, startedAt, finishedAt, summary) VALUES (?, ?, ?, ?, ?)').run(crawlId, sqlDate(at), sqlDate(at), sqlDate(at), JSON.stringify(OLD_SUMMARY));
  const dir = crawlWarcDir(s.env.dataDir, crawlId);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'coherence-certificate.json');
  const old = { format: 'tidemark-coherence-certificate/1', crawl: { id: crawlId, name: 'Nothing to revisit' }, referenceTime: OLD_SUMMARY.referenceTime, generatedAt: OLD_SUMMARY.referenceTime, summary: OLD_SUMMARY, unchanged: [], notCertified: [] };
  writeFileSync(file, JSON.stringify(old, null, 2) + '\n');
  const sha = () => createHash('sha256').update(readFileSync(file)).digest('hex');
  const before = sha();

  const { GET: report } = await import('../../../app/api/crawls/[id]/coherence/route');
  const { GET: certificate } = await import('../../../app/api/crawls/[id]/coherence/certificate/route');
  const params = { id: String(crawlId) };
  const served = await callRoute(curator, certificate as RouteHandler<{ id: string }>, 'GET', `/api/crawls/${crawlId}/coherence/certificate`, undefined, params);
  assert.equal(served.status, 200);
  assert.deepEqual(served.body, { ...old, summary: NULL_SUMMARY }, 'served: no coherence 1 for a run over no page');
  const shown = await callRoute(curator, report as RouteHandler<{ id: string }>, 'GET', `/api/crawls/${crawlId}/coherence`, undefined, params);
  assert.equal(shown.status, 200);
  assert.deepEqual((shown.body as unknown as CoherenceReport).summary, NULL_SUMMARY, 'the report says the same');
  assert.equal(sha(), before, 'the stored certificate is not rewritten');
  assert.equal(s.db.prepare('SELECT summary FROM CoherenceRun WHERE crawlId = ?').pluck().get(crawlId), JSON.stringify(OLD_SUMMARY), 'nor the stored summary');
});
