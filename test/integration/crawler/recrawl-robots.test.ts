/**
 * Recrawl rounds refetch pages for as long as a crawl runs (weeks), and robots.txt is read again
 * each day: a page it has come to disallow is not refetched (rounds did not ask it), and said so in
 * the crawl log once, not at every round for as long as the crawl runs; a page whose robots.txt cannot
 * be fetched for now is logged once in the round and recorded for it. Real parts: a migrated SQLite
 * database, the engine on a shortened minute and robots.txt age, loopback sites.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { serveOn, withCrawl, withSiteCrawl } from '../../support/site-crawl';
import { robotsSite } from '../../support/robots-site';

test('a recrawl round does not refetch a page robots.txt has come to disallow', { timeout: 60_000 }, async () => {
  const site = robotsSite({ body: (path) => `<p>${path} ${Date.now()}</p>` });
  const { requested } = site;
  await withSiteCrawl('tm-recrawl-robots-', site.listener, { name: 'Recrawl and robots', coherence: { recrawlIntervalMinutes: 1 } }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300, robotsMaxAgeMs: 200 });
    const run = engine.run();
    const captured = (url: string) => (db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, url) as number) > 0;
    for (const end = Date.now() + 20_000; !captured(`${origin}/b`) && Date.now() < end; ) await sleep(20);
    assert.ok(captured(`${origin}/b`), 'the visit captured /b');
    // The site now disallows /b; rounds start after this.
    site.robots = 'User-agent: *\nDisallow: /b\n';
    const from = requested.length;
    const rounds = () => engine.incremental?.rounds.length ?? 0;
    const before = rounds();
    for (const end = Date.now() + 30_000; rounds() < before + 2 && Date.now() < end; ) await sleep(20);
    await engine.stop();
    assert.equal(await run, 'stopped');
    const later = requested.slice(from);
    assert.ok(rounds() >= before + 2 && later.includes('/a'), `two rounds refetched the pages: ${later.join(' ')}`);
    assert.ok(later.includes('/robots.txt'), 'robots.txt was read again');
    assert.deepEqual(later.filter((p) => p === '/b'), [], `/b was not refetched: ${later.join(' ')}`);
  });
});

test('a parent that robots.txt has come to disallow is neither counted as refetched nor taken for unchanged', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  let robots = 'User-agent: *\nDisallow:\n';
  let readings = 0;
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title>${body}`);
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
    if (path === '/') return void html('<a href="/hub">hub</a>');
    // The hub never changes; its two articles change at every request.
    if (path === '/hub') return void html('<a href="/news/1">one</a> <a href="/news/2">two</a>');
    if (path === '/news/1' || path === '/news/2') return void html(`<p>reading ${++readings}</p>`);
    res.writeHead(404).end();
  };
  await withSiteCrawl('tm-recrawl-parent-robots-', site, { name: 'Parent and robots', coherence: { recrawlIntervalMinutes: 1 } }, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300, robotsMaxAgeMs: 100 });
    const run = engine.run();
    const rounds = () => engine.incremental?.rounds ?? [];
    for (const end = Date.now() + 20_000; rounds().length < 1 && Date.now() < end; ) await sleep(5);
    // Round 1 refetched the four pages, the hub unchanged (not due in round 2). Then the hub is disallowed.
    robots = 'User-agent: *\nDisallow: /hub\n';
    const from = requested.length;
    for (const end = Date.now() + 20_000; rounds().length < 2 && Date.now() < end; ) await sleep(5);
    await engine.stop();
    assert.equal(await run, 'stopped');
    const [round1, round2] = rounds();
    assert.equal(round1?.fetched, 4);
    const later = requested.slice(from).filter((p) => p !== '/robots.txt');
    assert.deepEqual(later.sort(), ['/news/1', '/news/2'], 'round 2 requested the articles, not the hub');
    // Both articles changed, so the rule asked for the hub; robots.txt said no.
    assert.equal(round2?.fetched, 2, `only the requests made count: ${JSON.stringify(round2)}`);
    assert.equal(round2?.parentsFetched, 0);
    assert.equal(round2?.parentThreshold, round1?.parentThreshold, 'the threshold is left as it was: the hub was not observed');
  });
});

/** How long the rounds' engines keep robots.txt answers in the tests whose rounds run on engines of their own, after a visit's. */
const HOUR_MS = 3_600_000;

/** Waits, polling, until `done`, failing with `what` after a generous deadline. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 30_000; !done(); await sleep(10)) assert.ok(Date.now() < end, `timed out waiting for ${what}`);
}

test('a page robots.txt keeps refusing is logged and counted once, not at every round; again when it refuses it after allowing it', { timeout: 90_000 }, async () => {
  const site = robotsSite();
  const { origin, close } = await serveOn('127.0.0.2', site.listener);
  try {
    await withCrawl('tm-recrawl-robots-once-', { seeds: [`${origin}/`], name: 'Refused once', coherence: { recrawlIntervalMinutes: 1 } }, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300, robotsMaxAgeMs: 100 });
      const run = engine.run();
      const rounds = () => engine.incremental?.rounds.length ?? 0;
      await until(() => (db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, `${origin}/b`) as number) > 0, 'the visit of /b');
      const refusals = () => db.prepare("SELECT message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? AND outcome = 'robots' ORDER BY id").pluck().all(crawlId, `${origin}/b`) as string[];
      site.robots = 'User-agent: *\nDisallow: /b\n';
      await until(() => refusals().length > 0, 'the first refusal');
      const refusedAt = rounds();
      // /b stays due (not observed): robots.txt is asked at every round, and refuses it each time.
      await until(() => rounds() >= refusedAt + 3, 'three rounds more');
      assert.equal(refusals().length, 1, `logged once: ${refusals().join(' / ')}`);
      assert.equal(engine.stats().excludedByReason['robots'], 1, 'counted once among the exclusions');
      // Allowed again, refetched; then refused again: a new refusal, logged once.
      site.robots = 'User-agent: *\nDisallow:\n';
      const from = site.requested.length;
      await until(() => site.requested.slice(from).includes('/b'), 'a refetch of /b');
      site.robots = 'User-agent: *\nDisallow: /b\n';
      await until(() => refusals().length > 1, 'the second refusal');
      const againAt = rounds();
      await until(() => rounds() >= againAt + 2, 'two rounds more');
      await engine.stop();
      assert.equal(await run, 'stopped');
      const logged = refusals();
      assert.equal(logged.length, 2, `one entry a refusal: ${logged.join(' / ')}`);
      for (const message of logged) assert.match(message, /^recrawl round \d+: not refetched: disallowed by robots\.txt; asked again at each round it is due, not logged again while it refuses it$/);
      assert.equal(engine.stats().excludedByReason['robots'], 2);
    });
  } finally {
    close();
  }
});

test('a refetch not made because robots.txt cannot be fetched for now is logged once in the round and recorded: the round run again after a pause does not log it again', { timeout: 90_000 }, async () => {
  // Site A's robots.txt fails (503) in the recrawl; site B's page, refetched after A's (URL order), is held while the crawl pauses.
  const siteA = robotsSite();
  let holdB = false;
  let requestsOfB = 0;
  const siteB: RequestListener = (req, res) => {
    if (req.url !== '/') return void res.writeHead(404).end(); // robots.txt too: all allowed
    requestsOfB++;
    const answer = () => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>b</p>');
    if (holdB) setTimeout(answer, 5_000);
    else answer();
  };
  const a = await serveOn('127.0.0.3', siteA.listener);
  const b = await serveOn('127.0.0.4', siteB);
  try {
    const fields = { seeds: [`${a.origin}/`, `${b.origin}/`], name: 'robots.txt not yet', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } };
    await withCrawl('tm-recrawl-robots-retry-', fields, async ({ dir, db, icd, crawlId }) => {
      // The rounds' engines keep robots.txt answers an hour: the visit's, kept for a day, are more than
      // that allows (robots-cache.ts restore), so each reads robots.txt afresh rather than resuming with them.
      const engine = (minuteMs: number, robotsMaxAgeMs?: number) =>
        new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs, haltGraceMs: 100, robotsMaxAgeMs });
      // The visit, with no round (a long minute).
      const visit = engine(600_000);
      let run = visit.run();
      await until(() => (db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND status = 200 AND url NOT LIKE ?').pluck().get(crawlId, '%/robots.txt') as number) === 4, 'the visit');
      await visit.stop();
      assert.equal(await run, 'stopped');

      siteA.robots = 503;
      holdB = true;
      const notYet = () => db.prepare("SELECT url, message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'robots-retry' ORDER BY id").all(crawlId) as { url: string; message: string }[];
      const first = engine(300, HOUR_MS);
      run = first.run();
      await until(() => requestsOfB >= 2, "round 1's refetch of B");
      await first.pause();
      assert.equal(await run, 'paused');
      assert.deepEqual(first.incremental?.rounds, [], 'round 1 did not finish');
      const pagesOfA = [`${a.origin}/`, `${a.origin}/a`, `${a.origin}/b`];
      assert.deepEqual(notYet().map((e) => e.url), pagesOfA, 'each page of A logged before the pause');

      const resumed = engine(300, HOUR_MS);
      run = resumed.run();
      await until(() => (resumed.incremental?.rounds.length ?? 0) >= 1, 'round 1');
      await resumed.stop();
      assert.equal(await run, 'stopped');
      const round1 = notYet().filter((e) => e.message.startsWith('recrawl round 1:'));
      // Not recorded, the round run again asked robots.txt again and logged each page a second time.
      assert.deepEqual(round1, pagesOfA.map((url) => ({ url, message: 'recrawl round 1: not refetched: robots.txt could not be fetched for now; retried in the next round' })));
    });
  } finally {
    a.close();
    b.close();
  }
});

test('a pause that cuts off robots.txt in a recrawl round records what a first visit records: the request on the host\'s clock, no log entry, the page left due', { timeout: 90_000 }, async () => {
  let slow = false;
  const site = robotsSite({ onRequest: (path) => (path === '/robots.txt' && slow ? 3_000 : 0) });
  const fields = { name: 'Recrawl, robots.txt cut off', politeness: { enabled: true, minDelayMs: 50, maxDelayMs: 50, delayFactor: 0 }, coherence: { recrawlIntervalMinutes: 1 } };
  await withSiteCrawl('tm-recrawl-robots-cut-', site.listener, fields, async ({ origin, dir, db, icd, crawlId }) => {
    // As above: the rounds' engines read robots.txt afresh, not resuming with the visit's answers.
    const engine = (minuteMs: number, robotsMaxAgeMs?: number) =>
      new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs, haltGraceMs: 100, robotsMaxAgeMs });
    const pages = () => db.prepare("SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url NOT LIKE '%/robots.txt'").pluck().get(crawlId) as number;
    const logged = () => db.prepare('SELECT url, outcome FROM CrawlLogEntry WHERE crawlId = ? ORDER BY id').all(crawlId);
    // The visit, with no round (a long minute).
    const visit = engine(600_000);
    let run = visit.run();
    await until(() => pages() === 3, 'the visit');
    await visit.stop();
    assert.equal(await run, 'stopped');
    const visitLog = logged();

    slow = true;
    const robotsAsked = () => site.requested.filter((p) => p === '/robots.txt').length;
    const asked = robotsAsked();
    const cut = engine(300, HOUR_MS);
    run = cut.run();
    await until(() => robotsAsked() > asked, "round 1's robots.txt request");
    await sleep(200);
    const pausedAt = Date.now();
    await cut.pause();
    assert.equal(await run, 'paused');
    // The request cut off is on the host's clock (the next waits its delay after it), as the robots stage keeps it.
    const key = db.prepare('SELECT last_start_at + last_duration_ms AS endedAt FROM frontier_key').get() as { endedAt: number };
    assert.ok(key.endedAt >= pausedAt - 50, `the key's last request ended ${pausedAt - key.endedAt} ms before the pause`);
    // Nothing said about the site: no crawl-log entry, no page recorded for the round, none refused.
    assert.deepEqual(logged(), visitLog);
    assert.deepEqual(db.prepare('SELECT COUNT(*) FROM engine_recrawl_result').pluck().get(), 0);
    assert.deepEqual(db.prepare('SELECT url FROM engine_recrawl_page WHERE crawl_id = ? AND (last_round > 0 OR robots_refusal IS NOT NULL)').pluck().all(crawlId), []);

    slow = false;
    const from = site.requested.length;
    const resumed = engine(300, HOUR_MS);
    run = resumed.run();
    await until(() => (resumed.incremental?.rounds.length ?? 0) >= 1, 'round 1 after the resume');
    await resumed.stop();
    assert.equal(await run, 'stopped');
    assert.ok(['/', '/a', '/b'].every((p) => site.requested.slice(from).includes(p)), `the resumed round refetched every page: ${site.requested.slice(from).join(' ')}`);
    assert.deepEqual(db.prepare("SELECT url FROM CrawlLogEntry WHERE crawlId = ? AND outcome LIKE 'robots%'").pluck().all(crawlId), [], `${origin}: no robots.txt refusal logged`);
  });
});
