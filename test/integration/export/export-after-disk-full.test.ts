/**
 * A crawl that a full disk paused leaves its last WARC file open (`.warc.gz.open`, with
 * `index.cdxj.open`): the pause cannot count on room to close it. Before, an export of that paused
 * crawl took the closed files only: it was listed as done while the captures of the last file,
 * stored and acknowledged, were not in it (or it failed, "no closed WARC files yet", when there was
 * no other file). The export now closes such files first, as a resume would. Real parts: the
 * migrated SQLite database (its `max_page_count` answers SQLITE_FULL as a full disk does), the
 * worker's CrawlManager crawling a loopback site, and the export read back with warcio.
 */
import { test } from 'node:test';
import type Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlManager } from '../../../worker/process/crawl-manager';
import { icdSchema } from '../../../worker/icd/schema';
import { sqlDate } from '../../../worker/store/sqlite';
import { crawlWarcDir } from '../../../worker/store/data-layout';
import { verifyCdxj, verifyWarcFile } from '../../../worker/warc/verify-warc';
import { scanGzipMembers } from '../../../worker/warc/gzip-members';
import { field, parseWarcHead } from '../../../worker/warc/parse-heads';
import { insertCrawl, migratedDatabase } from '../../support/crawl-rows';
import { serveLoopback } from '../../support/loopback-site';
import { until } from '../../support/engine-run';
import { withTempDir } from '../../support/temp-dir';

const PAGES = 60;
/** Page i: incompressible text (so the database fills as pages are stored) and links to the next three. */
const page = (i: number) => `<p>${[1, 2, 3].map((k) => `<a href="/p/${(i + k) % PAGES}">on</a>`).join('')}</p><pre>${randomBytes(12_000).toString('hex')}</pre>`;
const origin = await serveLoopback((req, res) => {
  const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? NaN);
  // Slow enough for a pause to land part-way.
  if (Number.isInteger(n) && n < PAGES) setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(page(n)), 30);
  else res.writeHead(404).end();
});

interface PausedCrawl {
  db: Database.Database;
  dataDir: string;
  crawlId: number;
  warcDir: string;
  crawl(): { status: string; error: string | null };
  /** Record ids of the captures the database acknowledged. */
  acknowledged: string[];
}

/**
 * Runs `fn` with a crawl in the worker that the archivist paused once (its first file closed), then
 * resumed on a disk with room for a few pages only: paused by the full disk, its last file open.
 * The room is given back before `fn`.
 */
async function withCrawlPausedByFullDisk(prefix: string, fn: (c: PausedCrawl) => Promise<void>): Promise<void> {
  await withTempDir(prefix, async (dataDir) => {
    const db = migratedDatabase(dataDir);
    const icd = icdSchema.parse({ name: 'Disk full', seeds: [`${origin}/p/0`], politeness: { enabled: false, concurrency: 2 } });
    const crawlId = insertCrawl(db, icd);
    const warcDir = crawlWarcDir(dataDir, crawlId);
    const crawl = () => db.prepare('SELECT status, error FROM Crawl WHERE id = ?').get(crawlId) as { status: string; error: string | null };
    const captures = () => db.prepare("SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND recordType IN ('response', 'revisit')").pluck().get(crawlId) as number;
    const manager = new CrawlManager({ db, dataDir, send: () => undefined });
    manager.start();
    try {
      // A first part, paused by the archivist: its file is closed.
      await until('a few captures', () => captures() >= 5);
      db.prepare("UPDATE Crawl SET desired = 'pause' WHERE id = ?").run(crawlId);
      await until('the pause', () => crawl().status === 'paused');
      assert.equal(readdirSync(warcDir).filter((n) => n.endsWith('.warc.gz')).length, 1);
      const pausedAt = captures();

      // Resumed with room for a few pages' rows only: the disk fills and the crawl pauses itself.
      db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 2}`);
      db.prepare("UPDATE Crawl SET desired = 'run' WHERE id = ?").run(crawlId);
      await until('the pause for room', () => crawl().status === 'paused' && /disk is full/.test(crawl().error ?? ''), 60_000);
      assert.ok(readdirSync(warcDir).some((n) => n.endsWith('.warc.gz.open')), 'the last file was left open');
      const acknowledged = db.prepare("SELECT warcRecordId FROM Capture WHERE crawlId = ? AND recordType IN ('response', 'revisit')").pluck().all(crawlId) as string[];
      assert.ok(acknowledged.length > pausedAt && acknowledged.length < PAGES, `paused part-way, after more captures (${pausedAt}, then ${acknowledged.length})`);
      db.pragma('max_page_count = 1073741823');
      await fn({ db, dataDir, crawlId, warcDir, crawl, acknowledged });
    } finally {
      await manager.shutdown();
      db.close();
    }
  });
}

/** Record ids of the records in the WARC files `names` of `dir`, each file verified on the way. */
async function verifiedRecordIds(dir: string, names: readonly string[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const name of names) {
    assert.deepEqual((await verifyWarcFile(join(dir, name))).errors, [], name);
    await scanGzipMembers(join(dir, name), (m) => {
      const id = field(parseWarcHead(m.head)?.fields ?? [], 'WARC-Record-ID');
      if (id) ids.add(id);
    }, 4096);
  }
  return ids;
}

/** Waits for the export to end, and checks it is done and holds every capture in `acknowledged`, indexed. */
async function expectWholeExport(c: PausedCrawl, exportId: number): Promise<void> {
  const exportRow = () => c.db.prepare('SELECT status, error, files FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null; files: string };
  await until('the export ends', () => ['done', 'failed'].includes(exportRow().status), 60_000);
  const row = exportRow();
  assert.equal(row.status, 'done', row.error ?? '');
  const dir = join(c.dataDir, 'exports', String(exportId));
  const names = (JSON.parse(row.files) as { name: string }[]).map((f) => f.name);
  const warcs = names.filter((n) => n.endsWith('.warc.gz'));
  assert.ok(warcs.length >= 2, `the closed file and the one left open: ${names.join(', ')}`);
  const exported = await verifiedRecordIds(dir, warcs);
  assert.deepEqual(c.acknowledged.filter((id) => !exported.has(id)), [], 'no acknowledged capture missing from the export');
  const index = await verifyCdxj(join(dir, 'index.cdxj'), dir);
  assert.deepEqual(index.errors, []);
  assert.equal(index.lines, c.acknowledged.length, 'one index line per capture');
}

const requestExport = (c: PausedCrawl) => Number(c.db.prepare("INSERT INTO Export (crawlId, status, createdAt) VALUES (?, 'pending', ?)").run(c.crawlId, sqlDate(new Date())).lastInsertRowid);

test('an export of a crawl paused by a full disk holds every acknowledged capture, the last open file\'s too', { timeout: 120_000 }, async () => {
  await withCrawlPausedByFullDisk('tm-export-disk-full-', async (c) => {
    await expectWholeExport(c, requestExport(c));
    // Resumed afterwards, the crawl goes on to its end.
    c.db.prepare("UPDATE Crawl SET desired = 'run' WHERE id = ?").run(c.crawlId);
    await until('the end of the crawl', () => c.crawl().status === 'finished', 60_000);
    assert.equal(c.db.prepare("SELECT COUNT(DISTINCT url) FROM Capture WHERE crawlId = ? AND url LIKE '%/p/%'").pluck().get(c.crawlId), PAGES);
  });
});

// A stop of a paused crawl closes its files too (CrawlManager.settleWithoutEngine): asked for as the
// export starts, the two must not close them at the same time (both renaming the files, both
// rewriting the index).
test('an export and a stop of a crawl paused by a full disk, asked for at once: the export is whole, the crawl stopped with its files whole', { timeout: 120_000 }, async () => {
  await withCrawlPausedByFullDisk('tm-export-disk-full-stop-', async (c) => {
    const exportId = c.db.transaction(() => {
      c.db.prepare("UPDATE Crawl SET desired = 'stop' WHERE id = ?").run(c.crawlId);
      return requestExport(c);
    })();
    await expectWholeExport(c, exportId);
    await until('the stop', () => c.crawl().status === 'stopped', 30_000);
    const names = readdirSync(c.warcDir);
    assert.deepEqual(names.filter((n) => n.endsWith('.open')), [], 'no file left open');
    const kept = await verifiedRecordIds(c.warcDir, names.filter((n) => n.endsWith('.warc.gz')));
    assert.deepEqual(c.acknowledged.filter((id) => !kept.has(id)), [], 'every acknowledged capture in the crawl\'s own files');
    const index = await verifyCdxj(join(c.warcDir, 'index.cdxj'), c.warcDir);
    assert.deepEqual(index.errors, []);
    assert.equal(index.lines, c.acknowledged.length);
  });
});
