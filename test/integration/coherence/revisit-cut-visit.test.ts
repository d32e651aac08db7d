/**
 * A visit–revisit capture in which a page's visit was cut off mid-body (the server closed the
 * connection after half the declared Content-Length) and its revisit is whole. The visit's
 * fingerprint was compared as a whole one: the page counted as changed. It is now missing with
 * evidence `visit-cut` and no change rate. Real parts: a migrated SQLite database, the engine, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { cutBodySite } from '../../support/cut-body-site';

test('a page whose visit was cut off mid-body is missing at its revisit (visit-cut), not changed', { timeout: 60_000 }, async () => {
  const { listener: site } = cutBodySite();
  const fields = { name: 'Cut visit', coherence: { mode: 'visit-revisit' }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-revisit-cut-visit-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    const page = (url: string) => db.prepare('SELECT status, evidence, changeRate FROM CoherencePage WHERE crawlId = ? AND url = ?').get(crawlId, url);
    assert.deepEqual(page(`${origin}/p`), { status: 'missing', evidence: 'visit-cut', changeRate: null });
    assert.deepEqual(page(`${origin}/`), { status: 'unchanged', evidence: 'payload-digest', changeRate: 0 }, 'a whole visit is compared as before');
  });
});
