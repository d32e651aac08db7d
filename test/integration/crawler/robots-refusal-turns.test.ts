/**
 * A URL robots.txt refuses is not requested, so it takes no turn of its host's politeness clock:
 * the host's key keeps its last real request. Real parts: a loopback site, a migrated SQLite
 * database, the engine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('URLs robots.txt refuses leave the host\'s clock at its last request', { timeout: 60_000 }, async () => {
  const DELAY_MS = 300;
  const requests: { path: string; end: number }[] = [];
  // The refused links come after the allowed one, so they are the last URLs of the host leased.
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '';
    if (path === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /x\n');
    else res.writeHead(200, { 'content-type': 'text/html' }).end(path === '/' ? '<a href="/open">o</a><a href="/x/1">1</a><a href="/x/2">2</a><a href="/x/3">3</a>' : `<p>${path}</p>`);
    requests.push({ path, end: Date.now() });
  };
  const fields = { name: 'Refusals take no turn', politeness: { minDelayMs: DELAY_MS, maxDelayMs: DELAY_MS, delayFactor: 0, concurrency: 1 } };
  await withSiteCrawl('tm-robots-refusal-turns-', site, fields, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    assert.deepEqual(requests.map((r) => r.path), ['/robots.txt', '/', '/open']);
    assert.equal(db.prepare('SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND reason = ?').pluck().get(crawlId, 'robots-disallowed'), 3);
    const key = db.prepare('SELECT last_start_at AS start, last_duration_ms AS duration FROM frontier_key').get() as { start: number; duration: number };
    // Each refusal taking a turn moved the clock a delay further each time, past the last request's end.
    const lastRequestEnd = requests.at(-1)!.end;
    assert.ok(key.start + key.duration < lastRequestEnd + DELAY_MS, `the key's last request ended ${key.start + key.duration - lastRequestEnd} ms after /open was answered`);
  });
});
