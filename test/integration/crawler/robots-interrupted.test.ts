/**
 * A pause while robots.txt is still being fetched cuts that fetch off (`interrupted`): that says
 * nothing about the site. It was taken for an unreachable robots.txt, so the page waiting on it was
 * stored with a retry time 15–30 s ahead, which held it back after the resume too. Real parts: a
 * migrated SQLite database, the engine, a loopback site whose robots.txt answers slowly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('a pause that cuts off the robots.txt fetch leaves the page to be fetched as soon as the crawl resumes', { timeout: 90_000 }, async () => {
  let robotsSlow = true;
  const site: RequestListener = (req, res) => {
    if (req.url === '/robots.txt') {
      const answer = () => void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      return void (robotsSlow ? setTimeout(answer, 3_000) : answer());
    }
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    res.writeHead(404).end();
  };
  await withSiteCrawl('tm-robots-interrupted-', site, { name: 'Robots cut off' }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), haltGraceMs: 100 });
    const first = engine();
    const run = first.run();
    await sleep(500);
    await first.pause();
    assert.equal(await run, 'paused');
    const seed = db.prepare('SELECT state, not_before FROM frontier_url WHERE crawl_id = ? AND url = ?').get(crawlId, `${origin}/`) as { state: number; not_before: number | null };
    assert.ok(seed.not_before === null || seed.not_before <= Date.now(), `the page is not held back (not before ${seed.not_before && seed.not_before - Date.now()} ms from now)`);
    robotsSlow = false;
    const started = Date.now();
    assert.equal(await engine().run(), 'finished');
    // The bug held the page back 15–30 s (an unreachable robots.txt's retry).
    assert.ok(Date.now() - started < 10_000, `resumed and finished in ${Date.now() - started} ms`);
    assert.deepEqual(db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(crawlId), [`${origin}/`, `${origin}/robots.txt`]);
  });
});

test('a pause that cuts off the last try of an unreachable robots.txt does not make the site disallow-all: the page goes back to the queue', { timeout: 90_000 }, async () => {
  // robots.txt answers 503 twice (two real tries of three), then slowly: the pause cuts the third try off.
  let robotsRequests = 0;
  let healthy = false;
  const site: RequestListener = (req, res) => {
    if (req.url === '/robots.txt') {
      robotsRequests++;
      if (healthy) return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
      if (robotsRequests <= 2) return void res.writeHead(503).end();
      return void setTimeout(() => res.writeHead(503).end(), 3_000);
    }
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    res.writeHead(404).end();
  };
  await withSiteCrawl('tm-robots-interrupted-third-', site, { name: 'Robots cut off on the last try', limits: { maxRetries: 0 } }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), haltGraceMs: 100, robotsBackoff: { baseMs: 20, maxMs: 40 } });
    const first = engine();
    const run = first.run();
    for (const end = Date.now() + 10_000; robotsRequests < 3 && Date.now() < end; ) await sleep(10);
    assert.equal(robotsRequests, 3, 'two 503s, then the third try under way');
    await first.pause();
    assert.equal(await run, 'paused');
    const seed = db.prepare('SELECT state, reason, not_before FROM frontier_url WHERE crawl_id = ? AND url = ?').get(crawlId, `${origin}/`) as { state: number; reason: string | null; not_before: number | null };
    const excluded = db.prepare("SELECT outcome FROM CrawlLogEntry WHERE crawlId = ? AND outcome LIKE 'robots%'").pluck().all(crawlId);
    assert.deepEqual(excluded, [], 'no page excluded because of robots.txt');
    assert.ok(seed.not_before === null || seed.not_before <= Date.now(), `the page is back in the queue (state ${seed.state}, ${seed.reason})`);
    healthy = true;
    assert.equal(await engine().run(), 'finished');
    assert.deepEqual(db.prepare('SELECT url FROM Capture WHERE crawlId = ? AND status = 200 ORDER BY url').pluck().all(crawlId), [`${origin}/`, `${origin}/robots.txt`]);
  });
});
