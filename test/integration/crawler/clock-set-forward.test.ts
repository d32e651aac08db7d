/**
 * A wall clock set forward (NTP after a VM's resume, an operator's `date -s`) while a host is in
 * back-off: the step counted as time the host was down, and its next failed try gave it up, its
 * waiting pages failing as host-unreachable, though it had been down a few seconds. The back-off's
 * length is now read on the monotonic clock. Real parts: a loopback server, a migrated SQLite
 * database, the crawl engine; Date.now() is stepped in this process (wall-clock-step.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { until } from '../../support/engine-run';
import { stepWallClock } from '../../support/wall-clock-step';

const HOUR = 3_600_000;

test('a host in back-off is not given up when the wall clock is set forward two hours: its next try fails, the one after fetches its pages', { timeout: 60_000 }, async () => {
  let resets = 0;
  let answering = false;
  const site: RequestListener = (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
    const body = req.url === '/' ? Array.from({ length: 6 }, (_, i) => `<a href="/p${i}">${i}</a>`).join('') : '<p>back</p>';
    if (req.url === '/' || answering) return void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    // No answer at all (the connection reset) until the first try after the step has failed.
    resets++;
    req.socket.destroy();
  };
  // Given up after ten minutes down: the two hours the clock jumps would give it up at once.
  const limits = { maxRetries: 0, hostFailuresBeforeBackoff: 3, hostBackoffMs: 1_000, hostGiveUpMs: 600_000 };
  await withSiteCrawl('tm-clock-forward-', site, { name: 'Host back-off, clock set forward', limits }, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    let putBack: (() => void) | null = null;
    const run = engine.run();
    try {
      await until('the host is in back-off', () => engine.stats().hostsInBackoff === 1, 15_000);
      const before = resets;
      putBack = stepWallClock(2 * HOUR);
      await until('the first try after the step got no answer', () => resets > before, 15_000);
      answering = true;
      const pages = () => db.prepare("SELECT COUNT(DISTINCT url) FROM Capture WHERE crawlId = ? AND status = 200 AND url LIKE '%/p_'").pluck().get(crawlId);
      await until('the host is tried again and every page fetched', () => pages() === 6, 15_000);
      assert.equal(await run, 'finished');
      const unreachable = db.prepare("SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND reason = 'host-unreachable'").pluck().get(crawlId);
      assert.equal(unreachable, 0, 'no page failed as host-unreachable');
    } finally {
      (putBack as (() => void) | null)?.();
      await engine.stop();
    }
  });
});
