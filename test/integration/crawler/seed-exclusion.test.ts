/**
 * A seed an exclude pattern of the ICD matches is not fetched: it is recorded as excluded
 * (`exclude-match`), as every other URL the pattern matches is; the other seeds are crawled.
 * Real parts: the engine, a migrated SQLite database, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('a seed an exclude pattern matches is recorded as excluded and never requested', { timeout: 30_000 }, async () => {
  const requested: string[] = [];
  const site = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    requested.push(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${req.url}</title>`);
  };
  const fields = (origin: string) => ({ name: 'Seeds excluded', seeds: [`${origin}/news/`, `${origin}/private/`], scope: { exclude: ['/private/'] } });
  await withSiteCrawl('tm-seed-exclusion-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    assert.deepEqual(requested.filter((p) => p !== '/robots.txt'), ['/news/']);
    const row = db.prepare('SELECT state, reason, kind FROM frontier_url WHERE crawl_id = ? AND url = ?').get(crawlId, `${origin}/private/`);
    assert.deepEqual(row, { state: 4, reason: 'exclude-match', kind: 'seed' });
    assert.equal(engine.stats().excludedByReason['exclude-match'], 1);
  });
});
