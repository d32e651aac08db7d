/**
 * A URL refused once is taken when a later discovery would take it (Heritrix does not count a
 * refused URL as seen): an image first linked with `<a>` off the scope, then embedded by another
 * page as a requisite; a page first found one hop too far, then linked from the scope within the
 * extra hops; and, in a recrawl round, a requisite frame that now redirects, whose redirect is a
 * requisite's as in the main crawl. Each is captured once, its WARC response record present, and
 * the counters agree with the frontier's rows. Real parts: the engine, a migrated SQLite database,
 * loopback sites on distinct addresses (the politeness registry is per IP).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import type { Icd } from '../../../worker/icd/schema';
import { serveOn, withCrawl } from '../../support/site-crawl';
import { warcTargets } from '../../support/warc-targets';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const html = (res: ServerResponse, body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);

/**
 * Serves a site on another host at `otherAddress`, then the seed site, which links to it, at
 * `seedAddress`; runs `fn` with their origins and closes both, whatever happens.
 */
async function withTwoSites(
  seedAddress: string, seedSite: (other: string) => RequestListener, otherAddress: string, otherSite: RequestListener, fn: (seed: string, other: string) => Promise<void>,
): Promise<void> {
  const other = await serveOn(otherAddress, otherSite);
  const seed = await serveOn(seedAddress, seedSite(other.origin)).catch((err: unknown) => (other.close(), Promise.reject(err)));
  try {
    await fn(seed.origin, other.origin);
  } finally {
    seed.close();
    other.close();
  }
}

/** Waits until the crawl's frontier holds `url` excluded (the first discovery refused it), at most 10 s. */
async function refusedFirst(db: () => Database.Database | null, url: string): Promise<boolean> {
  for (const end = Date.now() + 10_000; Date.now() < end; await sleep(20)) {
    const state = db()?.prepare('SELECT state FROM frontier_url WHERE url = ?').pluck().get(url);
    if (state === 4) return true;
  }
  return false;
}

/** Runs the crawl until it finishes; returns its engine, for its counters. */
async function crawlToTheEnd(c: { crawlId: number; icd: Icd; db: Database.Database; dir: string }): Promise<CrawlEngine> {
  const engine = new CrawlEngine({ crawlId: c.crawlId, icd: c.icd, db: c.db, warcDir: join(c.dir, 'warcs'), spoolDir: join(c.dir, 'spool') });
  assert.equal(await engine.run(), 'finished');
  return engine;
}

/** What the crawl did with `url`: its frontier row, its captures, its WARC response records; and the counters against the rows. */
async function outcome(db: Database.Database, crawlId: number, dir: string, engine: CrawlEngine, url: string) {
  const row = db.prepare('SELECT state, reason, kind, scope_hops AS hops FROM frontier_url WHERE crawl_id = ? AND url = ?').get(crawlId, url);
  const captures = db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, url);
  const responses = (await warcTargets(join(dir, 'warcs'), ['response'])).filter((u) => u === url).length;
  const excludedRows = Object.fromEntries(db.prepare('SELECT reason, COUNT(*) FROM frontier_url WHERE crawl_id = ? AND state = 4 GROUP BY reason').raw().all(crawlId) as [string, number][]);
  const stats = engine.stats();
  return { row, captures, responses, excludedRows, excludedByReason: stats.excludedByReason, excluded: stats.excluded, queued: stats.queued };
}

test('an image linked out of scope first, then embedded by another page, is captured once as a requisite', { timeout: 60_000 }, async () => {
  let db: Database.Database | null = null;
  let wasRefused = false;
  const seedSite = (cdn: string): RequestListener => async (req, res) => {
    if (req.url === '/') return html(res, `<title>Home</title><a href="${cdn}/pic.png">the picture</a> <a href="/gallery">gallery</a>`);
    if (req.url === '/gallery') {
      // Answered once the home page's link to the picture was refused: the order the defect needs.
      wasRefused = await refusedFirst(() => db, `${cdn}/pic.png`);
      return html(res, `<title>Gallery</title><img src="${cdn}/pic.png"> <a href="${cdn}/pic.png">again</a> <a href="/more">more</a>`);
    }
    if (req.url === '/more') return html(res, `<title>More</title><a href="${cdn}/pic.png">once more</a> <img src="${cdn}/pic.png">`);
    res.writeHead(404).end();
  };
  const cdnSite: RequestListener = (req, res) => {
    if (req.url === '/pic.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    res.writeHead(404).end();
  };
  await withTwoSites('127.0.0.61', seedSite, '127.0.0.62', cdnSite, async (seed, cdn) => {
    await withCrawl('tm-refused-requisite-', { name: 'Refused, then a requisite', seeds: [`${seed}/`] }, async (c) => {
      db = c.db;
      const engine = await crawlToTheEnd(c);
      assert.ok(wasRefused, 'the home page\'s link refused the picture first');
      const o = await outcome(c.db, c.crawlId, c.dir, engine, `${cdn}/pic.png`);
      assert.deepEqual(o.row, { state: 2, reason: null, kind: 'requisite', hops: 1 }, 'the picture left the excluded state, taken as the gallery\'s requisite');
      assert.equal(o.captures, 1, 'captured once');
      assert.equal(o.responses, 1, 'its WARC response record is there, once');
      assert.deepEqual(o.excludedRows, {}, 'nothing else was excluded');
      assert.deepEqual([o.excluded, o.excludedByReason], [0, {}], 'the counters no longer count it excluded');
      assert.equal(o.queued, 0);
    });
  });
});

test('a page refused one hop too far is taken when a page in the scope links to it within the extra hops', { timeout: 60_000 }, async () => {
  let db: Database.Database | null = null;
  let wasRefused = false;
  const seedSite = (other: string): RequestListener => async (req, res) => {
    if (req.url === '/') return html(res, `<title>Home</title><a href="${other}/cited">cited</a> <a href="/later">later</a>`);
    if (req.url === '/later') {
      wasRefused = await refusedFirst(() => db, `${other}/photo.png`);
      return html(res, `<title>Later</title><a href="${other}/photo.png">the photo</a>`);
    }
    res.writeHead(404).end();
  };
  const otherSite: RequestListener = (req, res) => {
    // One hop out: its link to the photo is a second hop, past the crawl's one.
    if (req.url === '/cited') return html(res, `<title>Cited</title><a href="/photo.png">photo</a>`);
    if (req.url === '/photo.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    res.writeHead(404).end();
  };
  await withTwoSites('127.0.0.63', seedSite, '127.0.0.64', otherSite, async (seed, other) => {
    await withCrawl('tm-refused-extra-hop-', { name: 'Refused, then an extra hop', seeds: [`${seed}/`], scope: { extraHops: 1 } }, async (c) => {
      db = c.db;
      const engine = await crawlToTheEnd(c);
      assert.ok(wasRefused, 'the cited page\'s link refused the photo first');
      const o = await outcome(c.db, c.crawlId, c.dir, engine, `${other}/photo.png`);
      assert.deepEqual(o.row, { state: 2, reason: null, kind: 'navigation', hops: 1 }, 'taken one hop out, from the page in the scope');
      assert.equal(o.captures, 1);
      assert.equal(o.responses, 1, 'its WARC response record is there, once');
      assert.deepEqual([o.excluded, o.excludedByReason, o.excludedRows], [0, {}, {}]);
    });
  });
});

test('a recrawl round takes the redirect a requisite frame now answers as a requisite, as the main crawl does', { timeout: 60_000 }, async () => {
  let visited = false;
  const seedSite = (frames: string): RequestListener => (req, res) => {
    if (req.url === '/') return html(res, `<title>Home</title><iframe src="${frames}/frame.html"></iframe>`);
    res.writeHead(404).end();
  };
  const framesSite: RequestListener = (req, res) => {
    // After the first visit the frame moved to an image on its host (off the scope).
    if (req.url === '/frame.html') return visited ? void res.writeHead(302, { location: '/moved.png' }).end() : html(res, '<title>Frame</title>');
    if (req.url === '/moved.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    res.writeHead(404).end();
  };
  await withTwoSites('127.0.0.65', seedSite, '127.0.0.66', framesSite, async (seed, frames) => {
    const moved = `${frames}/moved.png`;
    await withCrawl('tm-recrawl-requisite-redirect-', { name: 'Recrawl, requisite redirect', seeds: [`${seed}/`], coherence: { recrawlIntervalMinutes: 1 } }, async (c) => {
      const engine = new CrawlEngine({ crawlId: c.crawlId, icd: c.icd, db: c.db, warcDir: join(c.dir, 'warcs'), spoolDir: join(c.dir, 'spool'), minuteMs: 300 });
      const run = engine.run();
      const captured = (url: string) => (c.db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(c.crawlId, url) as number) > 0;
      for (const end = Date.now() + 20_000; !captured(`${frames}/frame.html`) && Date.now() < end; ) await sleep(20);
      visited = true;
      const rounds = () => engine.incremental?.rounds ?? [];
      for (const end = Date.now() + 30_000; (rounds().length < 2 || !captured(moved)) && Date.now() < end; ) await sleep(20);
      await engine.stop();
      assert.equal(await run, 'stopped');
      assert.ok(rounds().length >= 1, 'a round ran');
      const o = await outcome(c.db, c.crawlId, c.dir, engine, moved);
      assert.deepEqual(o.row, { state: 2, reason: null, kind: 'redirect', hops: 1 }, 'the frame\'s redirect was taken as a requisite\'s');
      assert.equal(o.captures, 1);
      assert.equal(o.responses, 1, 'its WARC response record is there, once');
    });
  });
});

const NEAR = '<title>Near</title><a href="/target">target</a>';

/**
 * A site for a crawl with maxDepth 2: / → /a → /b → /target (depth 3, refused) and / → /near →
 * /target (depth 2); `near` answers /near.
 */
function longPathSite(near: (res: ServerResponse, req: IncomingMessage) => unknown): RequestListener {
  const pages: Record<string, string> = {
    '/': '<title>Home</title><a href="/a">a</a> <a href="/near">near</a>',
    '/a': '<title>A</title><a href="/b">b</a>',
    '/b': '<title>B</title><a href="/target">target</a>',
    '/target': '<title>Target</title><a href="/b">b</a>',
  };
  return (req, res) => {
    if (req.url === '/near') return void near(res, req);
    const page = pages[req.url ?? ''];
    if (page) return html(res, page);
    res.writeHead(404).end();
  };
}

test('a page refused as too deep through a long path is taken when a page nearer the seeds links to it', { timeout: 60_000 }, async () => {
  let db: Database.Database | null = null;
  let wasRefused = false;
  // /near answers once /target was refused, as a focused crawl that went down the long path first would.
  const server = await serveOn('127.0.0.67', longPathSite(async (res) => {
    wasRefused = await refusedFirst(() => db, target);
    html(res, NEAR);
  }));
  const target = `${server.origin}/target`;
  try {
    await withCrawl('tm-refused-too-deep-', { name: 'Too deep, then nearer', seeds: [`${server.origin}/`], scope: { maxDepth: 2 } }, async (c) => {
      db = c.db;
      const engine = await crawlToTheEnd(c);
      assert.ok(wasRefused, 'the long path refused the target first');
      const o = await outcome(c.db, c.crawlId, c.dir, engine, target);
      assert.deepEqual(o.row, { state: 2, reason: null, kind: 'navigation', hops: 0 }, 'taken from the page nearer the seeds');
      assert.equal(c.db.prepare('SELECT depth FROM frontier_url WHERE crawl_id = ? AND url = ?').pluck().get(c.crawlId, target), 2, 'at its depth from /near');
      assert.equal(o.captures, 1, 'captured once');
      assert.equal(o.responses, 1, 'its WARC response record is there, once');
      assert.deepEqual([o.excluded, o.excludedByReason, o.excludedRows, o.queued], [0, {}, {}, 0], 'nothing counted excluded');
      const pages = c.db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(c.crawlId);
      assert.deepEqual(pages.filter((u) => !String(u).endsWith('/robots.txt')), ['/', '/a', '/b', '/near', '/target'].map((p) => server.origin + p), 'each page once');
    });
  } finally {
    server.close();
  }
});

test('paused after the long path refused a page as too deep, the resumed crawl takes it from the nearer page, as one run would', { timeout: 60_000 }, async () => {
  let db: Database.Database | null = null;
  let resumed = false;
  // The first run is paused while /near is under way: it is queued again and answered by the next run.
  const server = await serveOn('127.0.0.68', longPathSite((res, req) => (resumed ? html(res, NEAR) : void req.on('close', () => res.destroy()))));
  const target = `${server.origin}/target`;
  try {
    await withCrawl('tm-refused-too-deep-resume-', { name: 'Too deep, paused, nearer', seeds: [`${server.origin}/`], scope: { maxDepth: 2 } }, async (c) => {
      db = c.db;
      const first = new CrawlEngine({ crawlId: c.crawlId, icd: c.icd, db: c.db, warcDir: join(c.dir, 'warcs'), spoolDir: join(c.dir, 'spool'), haltGraceMs: 300 });
      const run = first.run();
      assert.ok(await refusedFirst(() => db, target), 'the long path refused the target first');
      await first.pause();
      assert.equal(await run, 'paused');
      assert.equal(c.db.prepare('SELECT state FROM frontier_url WHERE crawl_id = ? AND url = ?').pluck().get(c.crawlId, `${server.origin}/near`), 0, '/near waits');
      resumed = true;
      const engine = await crawlToTheEnd(c);
      const o = await outcome(c.db, c.crawlId, c.dir, engine, target);
      assert.deepEqual(o.row, { state: 2, reason: null, kind: 'navigation', hops: 0 }, 'taken from the page nearer the seeds');
      assert.equal(c.db.prepare('SELECT depth FROM frontier_url WHERE crawl_id = ? AND url = ?').pluck().get(c.crawlId, target), 2);
      assert.equal(o.captures, 1, 'captured once');
      assert.equal(o.responses, 1, 'its WARC response record is there, once');
      assert.deepEqual([o.excluded, o.excludedByReason, o.excludedRows, o.queued], [0, {}, {}, 0], 'nothing counted excluded');
    });
  } finally {
    server.close();
  }
});
