/**
 * The crawl's other waits than the politeness delay, under a wall clock set back an hour (NTP
 * correcting a fast clock, `date -s`) while they run: a URL waiting for robots.txt to be tried again
 * after a 503, and a host in back-off after URLs without an answer. Each wait's end was taken on the
 * wall clock before the step, and held its URLs for the hour. Real parts: loopback servers, a migrated
 * SQLite database, the crawl engine; Date.now() is stepped in this process (wall-clock-step.ts).
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
const page = (res: Parameters<RequestListener>[1], body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);

test('a URL waiting for robots.txt to be tried again is not held an hour by a wall clock set back an hour', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  const site: RequestListener = (req, res) => {
    requested.push(req.url ?? '/');
    if (req.url === '/robots.txt') {
      if (requested.filter((u) => u === '/robots.txt').length === 1) return void res.writeHead(503).end('busy');
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
    }
    if (req.url === '/') return page(res, '<title>home</title><a href="/next">next</a>');
    if (req.url === '/next') return page(res, '<title>next</title>');
    res.writeHead(404).end();
  };
  const politeness = { enabled: true, respectRobots: true, minDelayMs: 20, maxDelayMs: 20, delayFactor: 0 };
  await withSiteCrawl('tm-clock-robots-', site, { name: 'Robots retry, clock set back', politeness, limits: { maxRetries: 0 } }, async ({ dir, db, icd, crawlId }) => {
    // Tried again 1–2 s after the 503: the clock is set back while the seed waits for it.
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), robotsBackoff: { baseMs: 2_000, maxMs: 2_000 } });
    let putBack: (() => void) | null = null;
    const run = engine.run();
    try {
      const retrying = () => db.prepare('SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND state = 5').pluck().get(crawlId) === 1;
      await until('the seed waits for robots.txt to be tried again', retrying, 10_000);
      putBack = stepWallClock(-HOUR);
      await until('the seed and its link are fetched', () => requested.includes('/next'), 15_000);
      assert.equal(await run, 'finished');
    } finally {
      (putBack as (() => void) | null)?.();
      await engine.stop();
    }
    assert.deepEqual(requested, ['/robots.txt', '/robots.txt', '/', '/next']);
  });
});

test('a host in back-off is tried again after its wait, not an hour later, when the wall clock is set back an hour', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  let answering = false;
  const site: RequestListener = (req, res) => {
    requested.push(req.url ?? '/');
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
    if (req.url === '/') return page(res, Array.from({ length: 6 }, (_, i) => `<a href="/p${i}">${i}</a>`).join(''));
    // No answer at all (the connection reset) until the host is in back-off; then every page answers.
    if (!answering) return void req.socket.destroy();
    page(res, '<p>back</p>');
  };
  const limits = { maxRetries: 0, hostFailuresBeforeBackoff: 3, hostBackoffMs: 1_000, hostGiveUpMs: 0 };
  await withSiteCrawl('tm-clock-backoff-', site, { name: 'Host back-off, clock set back', limits }, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    let putBack: (() => void) | null = null;
    const run = engine.run();
    try {
      await until('the host is in back-off', () => engine.stats().hostsInBackoff === 1, 15_000);
      answering = true;
      putBack = stepWallClock(-HOUR);
      const pages = () => db.prepare("SELECT COUNT(DISTINCT url) FROM Capture WHERE crawlId = ? AND status = 200 AND url LIKE '%/p_'").pluck().get(crawlId);
      await until('the host is tried again and every page fetched', () => pages() === 6, 15_000);
      assert.equal(await run, 'finished');
    } finally {
      (putBack as (() => void) | null)?.();
      await engine.stop();
    }
  });
});

test('a host waiting out its politeness delay when the wall clock is set back an hour takes its next turn after the delay, not the hour', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  let putBack: (() => void) | null = null;
  const site: RequestListener = (req, res) => {
    requested.push(req.url ?? '/');
    // The clock is set back while the host waits its 2 s delay after /p1, nothing else under way.
    if (req.url === '/p1') res.on('finish', () => setTimeout(() => (putBack ??= stepWallClock(-HOUR)), 700));
    if (req.url === '/') return page(res, '<a href="/p1">1</a>');
    if (req.url === '/p1') return page(res, '<a href="/p2">2</a>');
    if (req.url === '/p2') return page(res, '<p>end</p>');
    res.writeHead(404).end();
  };
  const politeness = { enabled: true, respectRobots: false, minDelayMs: 2_000, maxDelayMs: 2_000, delayFactor: 0 };
  await withSiteCrawl('tm-clock-delay-', site, { name: 'Delay, clock set back', politeness }, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    const run = engine.run();
    try {
      await until('every page is fetched', () => requested.includes('/p2'), 15_000);
      assert.equal(await run, 'finished');
    } finally {
      (putBack as (() => void) | null)?.();
      await engine.stop();
    }
    assert.ok(putBack, 'the clock was set back');
  });
});
