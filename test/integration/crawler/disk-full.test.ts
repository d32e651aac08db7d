/**
 * A crawl whose storage fills up. Before, each page after the first refused write was recorded as
 * an `internal` failure (lost from the crawl), the WARC file kept captures the database never
 * acknowledged (archived twice once resumed), and the CLI ended on a stack trace. The database's
 * own limit (`max_page_count`) makes SQLite answer SQLITE_FULL, as a full disk does.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { CrawlManager } from '../../../worker/process/crawl-manager';
import { SqliteFrontier } from '../../../worker/frontier';
import { setTimeout as sleep } from 'node:timers/promises';
import { icdSchema } from '../../../worker/icd/schema';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { verifyCdxj, verifyWarcFile } from '../../../worker/warc/verify-warc';
import { insertCrawl } from '../../support/crawl-rows';
import { warcTargets } from '../../support/warc-targets';

const PAGES = 60;

// Incompressible pages, each linking to the next five.
const bodies = Array.from({ length: PAGES }, (_, i) =>
  `<html><body>${[1, 2, 3, 4, 5].map((k) => `<a href="/p/${(i + k) % PAGES}">next</a>`).join(' ')}<p>${randomBytes(15_000).toString('base64')}</p></body></html>`);
const server = createServer((req, res) => {
  const m = /^\/p\/(\d+)$/.exec(req.url ?? '');
  if (!m) return void res.writeHead(404).end();
  res.setHeader('content-type', 'text/html');
  res.end(bodies[Number(m[1])]);
});
let origin = '';
before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

/** A crawl of the site in a fresh database, whose room is then limited to `pages` more pages. */
function crawlSetUp(dir: string) {
  const db = openSqlite(join(dir, 'state.db'));
  applyMigrations(db, resolve('prisma/migrations'));
  const icd = icdSchema.parse({ name: 'Disk full', seeds: [`${origin}/p/0`], scope: { includeFavicon: false }, politeness: { enabled: false, concurrency: 8 } });
  const crawlId = insertCrawl(db, icd);
  // SQLite answers SQLITE_FULL past this many pages, as it does on a full disk.
  const limitRoom = (pages: number) => db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + pages}`);
  const unlimit = () => db.pragma('max_page_count = 1073741823');
  return { db, icd, crawlId, limitRoom, unlimit };
}

test('a full disk pauses the crawl with the reason; resumed with room, every page is archived once and every file reads whole', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-disk-full-'));
  const warcDir = join(dir, 'warcs');
  const { db, icd, crawlId, limitRoom, unlimit } = crawlSetUp(dir);
  try {
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool'), kbPath: resolve('knowledge-base/default.xml') });
    // Room for a few pages' rows only. The engine's own tables, made at its start, take most of it
    // first, and their share grows with the schema: at 12 pages, none was left once the migration
    // 20261201100000 added two indexes; 16 left room for 19 pages.
    limitRoom(16);
    const first = engine();
    assert.equal(await first.run(), 'paused');
    assert.match(first.pausedBecause ?? '', /^Paused: the disk is full \(database or disk is full\)\. .*Make room, then resume the crawl\.$/);
    const acknowledged = db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(crawlId) as number;
    assert.ok(acknowledged > 0 && acknowledged < PAGES, `paused part way (${acknowledged} pages stored)`);
    assert.equal(db.prepare("SELECT COUNT(*) FROM CrawlLogEntry WHERE outcome != 'ok'").pluck().get(), 0, 'no page recorded as failed');

    unlimit();
    assert.equal(await engine().run(), 'finished');

    const urls = db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(crawlId) as string[];
    // robots.txt is fetched again by each run.
    assert.deepEqual(urls.filter((u) => !u.endsWith('/robots.txt')), Array.from({ length: PAGES }, (_, i) => `${origin}/p/${i}`).sort(), 'every page stored once');
    const names = readdirSync(warcDir);
    assert.deepEqual(names.filter((n) => n.endsWith('.open')), [], 'no file left open');
    let responses = 0;
    for (const name of names.filter((n) => n.endsWith('.warc.gz'))) {
      const v = await verifyWarcFile(join(warcDir, name));
      assert.deepEqual(v.errors, [], name);
      responses += v.types.response ?? 0;
    }
    assert.equal(responses, urls.length, 'every capture archived once: the unacknowledged tail was cut');
    assert.deepEqual((await verifyCdxj(join(warcDir, 'index.cdxj'), warcDir)).errors, []);
    assert.equal(readFileSync(join(warcDir, 'index.cdxj'), 'utf8').trim().split('\n').length, urls.length);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('in the cockpit\'s worker, a crawl paused by a full disk waits with the reason, and resumes when asked', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-disk-full-worker-'));
  const { db, crawlId, limitRoom, unlimit } = crawlSetUp(dir);
  const manager = new CrawlManager({ db, dataDir: dir, send: () => undefined });
  const crawl = () => db.prepare('SELECT status, desired, error FROM Crawl WHERE id = ?').get(crawlId) as { status: string; desired: string; error: string | null };
  const until = async (what: string, probe: () => boolean) => {
    for (const end = Date.now() + 60_000; Date.now() < end; await sleep(50)) if (probe()) return;
    throw new Error(`timed out waiting for ${what}: ${JSON.stringify(crawl())}`);
  };
  try {
    limitRoom(16);
    manager.start();
    await until('the pause', () => crawl().status === 'paused');
    assert.equal(crawl().desired, 'pause', 'it is not launched again while the disk is full');
    assert.match(crawl().error ?? '', /^Paused: the disk is full/);
    const runs = db.prepare('SELECT COUNT(*) FROM CrawlRun WHERE crawlId = ?').pluck();
    const runsWhenPaused = runs.get(crawlId);
    await sleep(1500);
    assert.equal(runs.get(crawlId), runsWhenPaused, 'no new run while paused');

    unlimit();
    db.prepare("UPDATE Crawl SET desired = 'run' WHERE id = ?").run(crawlId);
    await until('the end of the crawl', () => crawl().status === 'finished');
    assert.equal(crawl().error, null, 'the reason is gone once resumed');
    assert.equal(db.prepare("SELECT COUNT(DISTINCT url) FROM Capture WHERE crawlId = ? AND url LIKE '%/p/%'").pluck().get(crawlId), PAGES);
  } finally {
    await manager.shutdown();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// A commit refused for lack of room can be followed by a smaller one that fits: a page with
// thousands of links (their frontier rows) does not fit, the small pages fetched after it do. Their
// captures were acknowledged behind the refused one in the WARC file, and the next start, which cuts
// the file at the first unacknowledged capture, cut them with it: stored in the database, gone from
// the WARC file and never fetched again.
async function refusedCommitOfLinks(links: number, checkPaused: (warcDir: string, bigUrl: string) => Promise<void>): Promise<void> {
  const SMALL = 7;
  const site = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    if (req.url === '/') res.end(`<a href="/big">big</a> ${Array.from({ length: SMALL }, (_, i) => `<a href="/s/${i}">s</a>`).join(' ')}`);
    else if (req.url === '/big') res.end(Array.from({ length: links }, (_, i) => `<a href="/x/${i}/${'q'.repeat(200)}">x</a>`).join(''));
    // Answered after /big has been archived and its commit refused.
    else if (req.url?.startsWith('/s/')) setTimeout(() => res.end('<p>small</p>'), 400);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'tm-disk-full-order-'));
  const warcDir = join(dir, 'warcs');
  const db = openSqlite(join(dir, 'state.db'));
  try {
    applyMigrations(db, resolve('prisma/migrations'));
    const icd = icdSchema.parse({ name: 'Refused commit', seeds: [`${siteOrigin}/`], scope: { maxDepth: 1, includeFavicon: false }, politeness: { enabled: false, concurrency: 8, respectRobots: false } });
    const crawlId = insertCrawl(db, icd);
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool'), kbPath: resolve('knowledge-base/default.xml') });
    // Room for the small pages' rows, not for /big's links.
    db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 40}`);
    assert.equal(await engine().run(), 'paused');
    assert.equal(db.prepare('SELECT COUNT(*) FROM Capture WHERE url = ?').pluck().get(`${siteOrigin}/big`), 0, '/big was refused');
    await checkPaused(warcDir, `${siteOrigin}/big`);

    db.pragma('max_page_count = 1073741823');
    assert.equal(await engine().run(), 'finished');
    const captures = db.prepare('SELECT url, warcFile, warcOffset, warcLength FROM Capture WHERE crawlId = ?').all(crawlId) as { url: string; warcFile: string; warcOffset: number; warcLength: number }[];
    assert.deepEqual(captures.map((c) => c.url).sort(), [`${siteOrigin}/`, `${siteOrigin}/big`, ...Array.from({ length: SMALL }, (_, i) => `${siteOrigin}/s/${i}`)].sort());
    const sizes = new Map(readdirSync(warcDir).filter((n) => n.endsWith('.warc.gz')).map((n) => [n, statSync(join(warcDir, n)).size]));
    const lost = captures.filter((c) => !(c.warcOffset + c.warcLength <= (sizes.get(c.warcFile) ?? 0))).map((c) => c.url);
    assert.deepEqual(lost, [], 'every stored capture is in its WARC file');
    let responses = 0;
    for (const name of sizes.keys()) {
      const { types, errors } = await verifyWarcFile(join(warcDir, name));
      assert.deepEqual(errors, [], name);
      // The small pages have one body: the first is a response, the others revisits.
      responses += (types.response ?? 0) + (types.revisit ?? 0);
    }
    assert.equal(responses, captures.length, 'each page archived once');
  } finally {
    db.close();
    site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('after a refused commit, no capture behind it in the WARC file is acknowledged, so the next start cuts none that was', { timeout: 120_000 }, async () => {
  // Under LINKS_COMMITTED_AHEAD_ABOVE links: they go with the page's own commit, after its records are written.
  await refusedCommitOfLinks(1500, async (warcDir, bigUrl) => {
    assert.ok((await warcTargets(warcDir, ['response'])).includes(bigUrl), "/big's records were written before its commit was refused");
  });
});

test('a page whose thousands of links do not fit pauses the crawl before its records are written; resumed, it is archived once', { timeout: 120_000 }, async () => {
  // Over LINKS_COMMITTED_AHEAD_ABOVE links: the schedule stage queues them, before the page takes its place in WARC order.
  await refusedCommitOfLinks(5000, async (warcDir, bigUrl) => {
    assert.ok(!(await warcTargets(warcDir, ['response'])).includes(bigUrl), 'no record of /big in the WARC files');
  });
});

test('scored URLs posted to the crawl that a full disk cannot queue pause it with the reason', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-disk-full-intake-'));
  const { db, icd, crawlId, limitRoom } = crawlSetUp(dir);
  try {
    // As POST /api/crawls/:id/urls leaves them for the worker (worker/frontier/scored-intake.ts).
    new SqliteFrontier(db).close();
    const post = db.prepare('INSERT INTO frontier_intake (crawl_id, url, score, blacklist, received_at) VALUES (?, ?, 0.9, 0, ?)');
    db.transaction(() => {
      for (let i = 0; i < 2_000; i++) post.run(crawlId, `${origin}/posted/${i}`, Date.now());
    })();
    limitRoom(16);
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    // The old code threw (the run failed, its keys and WARC writer left open), or, from the 500 ms timer, ended the process.
    assert.equal(await engine.run(), 'paused');
    assert.match(engine.pausedBecause ?? '', /^Paused: the disk is full/);
    assert.equal(db.prepare('SELECT COUNT(*) FROM frontier_intake WHERE crawl_id = ?').pluck().get(crawlId), 2_000, 'the posted URLs wait for the resume');
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
