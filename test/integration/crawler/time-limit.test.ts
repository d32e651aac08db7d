/**
 * A crawl's time and size limits (scope.maxDurationMinutes and maxBytes; Heritrix's max-time and
 * max-bytes-download, Browsertrix's crawl time and size limits): past the time limit the crawl visits no more URLs, lets pages under way finish, and finishes, saying
 * so in its counters; a crawl with recrawls, which otherwise runs until stopped, finishes too; the
 * worker counts the crawl's earlier runs, not its pauses. Real parts: a migrated SQLite database,
 * the engine and the CrawlManager on a shortened minute, a polite crawl of a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { CrawlManager } from '../../../worker/process/crawl-manager';
import { sqlDate } from '../../../worker/store/sqlite';
import { withSite, withSiteCrawl } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';
import { runCli } from '../../support/run-cli';
import { insertCrawl } from '../../support/crawl-rows';
import { until } from '../../support/engine-run';
import { stepWallClock } from '../../support/wall-clock-step';

const PAGES = 60;
/** A chain of pages: each links to the next, so the crawl always has one more to visit. */
function chainSite(requested: string[]): RequestListener {
  return (req, res) => {
    requested.push(req.url ?? '/');
    const n = req.url === '/' ? 0 : Number(/^\/p(\d+)$/.exec(req.url ?? '')?.[1] ?? NaN);
    if (!Number.isInteger(n)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>p${n}</title>${[n + 1, n + 2].filter((k) => k < PAGES).map((k) => `<a href="/p${k}">p${k}</a>`).join(' ')}`);
  };
}
// 100 ms between two requests to the host: ~10 pages a second, far from the 60 pages in a 1 s limit.
const polite = { enabled: true, respectRobots: false, minDelayMs: 100, maxDelayMs: 100, delayFactor: 0 };
const MINUTE_MS = 1000;

const countOf = (db: import('better-sqlite3').Database, sql: string, crawlId: number) => db.prepare(sql).pluck().get(crawlId) as number;

test('past its time limit a crawl leases nothing more, finishes with URLs queued, and says it ended by its limit', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  await withSiteCrawl('tm-time-limit-', chainSite(requested), { name: 'Time-limited', politeness: polite, scope: { maxDurationMinutes: 1 } }, async ({ dir, db, icd, crawlId }) => {
    const opts = { crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: MINUTE_MS };
    const engine = new CrawlEngine(opts);
    assert.equal(await engine.run(), 'finished');
    const fetched = requested.length;
    assert.ok(fetched >= 3 && fetched < PAGES, `a second's worth of pages fetched, not all: ${fetched}`);
    const stats = engine.stats();
    assert.equal(stats.endedBy, 'time-limit');
    assert.ok(stats.queued > 0, 'URLs were left queued');
    assert.equal(stats.inFlight, 0);
    assert.equal(countOf(db, 'SELECT COUNT(*) FROM Capture WHERE crawlId = ?', crawlId), fetched, 'every page fetched was archived');
    assert.equal(countOf(db, 'SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND state IN (1, 5)', crawlId), 0, 'none left in flight');

    // A run given its earlier runs' time, all of the limit, fetches nothing more.
    const spent = new CrawlEngine({ ...opts, ranBeforeMs: MINUTE_MS });
    assert.equal(await spent.run(), 'finished');
    assert.equal(requested.length, fetched);
    assert.equal(spent.stats().endedBy, 'time-limit');

    // Without them (the CLI run again on its --out) it goes on for another limit's worth, from where it was.
    const again = new CrawlEngine(opts);
    assert.equal(await again.run(), 'finished');
    assert.ok(requested.length > fetched, 'the next run went on');
    assert.equal(new Set(requested).size, requested.length, 'no page fetched twice');
  });
});

// Found by an exploratory session (time): the limit was a wall-clock deadline, so a clock set forward
// an hour or more (NTP stepping a clock after a VM resumed, an operator's `date -s`) ended an
// hour-limited crawl a second after it began, as 'time-limit', with its pages left queued.
test('a wall clock set forward two hours does not spend a crawl\'s one-hour time limit', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  let putBack: (() => void) | null = null;
  const chain = chainSite(requested);
  const site: RequestListener = (req, res) => {
    if (req.url === '/p2' && !putBack) putBack = stepWallClock(2 * 3_600_000);
    chain(req, res);
  };
  const fields = { name: 'Clock stepped', politeness: { ...polite, minDelayMs: 20, maxDelayMs: 20 }, scope: { maxDurationMinutes: 60, maxDepth: 100 } };
  await withSiteCrawl('tm-time-limit-step-', site, fields, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    try {
      assert.equal(await engine.run(), 'finished');
    } finally {
      (putBack as (() => void) | null)?.();
    }
    assert.ok(putBack, 'the clock was stepped');
    assert.equal(engine.stats().endedBy, undefined);
    assert.equal(countOf(db, 'SELECT COUNT(*) FROM Capture WHERE crawlId = ?', crawlId), PAGES, 'every page');
  });
});

test('a crawl with recrawls, which runs until stopped, finishes at its time limit', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  const fields = { name: 'Recrawled, time-limited', politeness: polite, scope: { maxDurationMinutes: 3 }, coherence: { recrawlIntervalMinutes: 1 } };
  await withSiteCrawl('tm-time-limit-recrawl-', chainSite(requested), fields, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: MINUTE_MS });
    assert.equal(await engine.run(), 'finished');
    assert.equal(engine.stats().endedBy, 'time-limit');
  });
});

test('the worker counts a crawl\'s earlier runs towards its limit, not the pauses between them', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  // A 60-minute limit, in real minutes.
  await withSiteCrawl('tm-time-limit-runs-', chainSite(requested), { name: 'Runs counted', politeness: { ...polite, minDelayMs: 20, maxDelayMs: 20 }, scope: { maxDurationMinutes: 60, maxDepth: 100 } }, async ({ dir, db, icd, crawlId: spent }) => {
    const run = db.prepare('INSERT INTO CrawlRun (crawlId, startedAt, endedAt, reason, workerPid) VALUES (?, ?, ?, ?, 0)');
    const hoursAgo = (h: number) => sqlDate(new Date(Date.now() - h * 3_600_000));
    // `spent`: two runs of 30 minutes a day apart, and one the worker died in (no end): its hour is spent.
    run.run(spent, hoursAgo(48), hoursAgo(47.5), 'start');
    run.run(spent, hoursAgo(24), hoursAgo(23.5), 'resume');
    run.run(spent, hoursAgo(2), null, 'resume');
    // `paused`: two runs of a second, two days apart: the days paused between them do not count.
    const paused = insertCrawl(db, icd);
    run.run(paused, hoursAgo(48), sqlDate(new Date(Date.now() - 48 * 3_600_000 + 1000)), 'start');
    run.run(paused, hoursAgo(1), sqlDate(new Date(Date.now() - 3_600_000 + 1000)), 'resume');
    db.prepare("UPDATE Crawl SET status = 'paused'").run();
    const manager = new CrawlManager({ db, dataDir: dir, send: () => undefined, kbPath: resolve('knowledge-base/default.xml') });
    manager.start();
    const status = (id: number) => db.prepare('SELECT status FROM Crawl WHERE id = ?').pluck().get(id) as string;
    try {
      await until('both crawls have ended', () => status(spent) === 'finished' && status(paused) === 'finished', 30_000);
    } finally {
      await manager.shutdown();
    }
    const statsOf = (id: number) => JSON.parse(db.prepare('SELECT stats FROM Crawl WHERE id = ?').pluck().get(id) as string) as { endedBy?: string; fetched: number };
    assert.equal(statsOf(spent).endedBy, 'time-limit');
    assert.equal(countOf(db, 'SELECT COUNT(*) FROM Capture WHERE crawlId = ?', spent), 0, 'its hour was spent in its earlier runs: nothing fetched');
    assert.equal(statsOf(paused).endedBy, undefined);
    assert.equal(countOf(db, 'SELECT COUNT(*) FROM Capture WHERE crawlId = ?', paused), PAGES, 'the crawl paused for days had its hour: every page');
  });
});

test('once its captures reach its size limit a crawl visits no more URLs and finishes, and a run after counts them', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  // Each page is ~60 bytes: a 500-byte limit is spent after about eight of the 60.
  await withSiteCrawl('tm-size-limit-', chainSite(requested), { name: 'Size-limited', politeness: polite, scope: { maxBytes: 500, maxDepth: 100 } }, async ({ dir, db, icd, crawlId }) => {
    const opts = { crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') };
    const engine = new CrawlEngine(opts);
    assert.equal(await engine.run(), 'finished');
    const stats = engine.stats();
    assert.equal(stats.endedBy, 'size-limit');
    assert.ok(stats.bytes >= 500, `${stats.bytes} bytes captured`);
    assert.ok(requested.length < PAGES && stats.queued > 0, `${requested.length} pages fetched, ${stats.queued} left queued`);
    const fetched = requested.length;
    // The bytes are the captures': a new run (a resume) counts them and fetches nothing.
    const again = new CrawlEngine(opts);
    assert.equal(await again.run(), 'finished');
    assert.equal(requested.length, fetched);
    assert.equal(again.stats().endedBy, 'size-limit');
  });
});

test('the CLI says a crawl ended by its size limit, and what would let it go on', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  await withSite(chainSite(requested), async (origin) => {
    await withTempDir('tm-limit-cli-', async (dir) => {
      const icdPath = join(dir, 'icd.json');
      writeFileSync(icdPath, JSON.stringify({ name: 'CLI size limit', seeds: [`${origin}/`], politeness: polite, scope: { maxBytes: 300, maxDepth: 100 } }));
      const out = join(dir, 'out');
      const first = await runCli(['crawl', icdPath, '--out', out, '--json']).done;
      assert.equal(first.code, 0, first.stderr);
      const summary = JSON.parse(first.stdout.trim().split('\n').at(-1)!) as { outcome: string; endedBy?: string; queued?: number; pages: number };
      assert.deepEqual([summary.outcome, summary.endedBy], ['finished', 'size-limit']);
      assert.ok((summary.queued ?? 0) > 0);
      const human = await runCli(['crawl', icdPath, '--out', out]).done;
      // The advice names the file whose scope.maxBytes a resume takes again (cli-resume-counts.test.ts follows it).
      assert.ok(human.stdout.includes(`ended by its size limit with ${summary.queued} URLs queued: raise scope.maxBytes in ${icdPath} (or set it to 0, no limit) and run the same command again to go on`), human.stdout);
      assert.equal(requested.length, summary.pages, 'the second run fetched nothing: the captures are over the limit');
    });
  });
});
