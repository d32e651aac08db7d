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

test('an export of a crawl paused by a full disk holds every acknowledged capture, the last open file\'s too', { timeout: 120_000 }, async () => {
  await withTempDir('tm-export-disk-full-', async (dataDir) => {
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
      const closedBefore = readdirSync(warcDir).filter((n) => n.endsWith('.warc.gz'));
      assert.equal(closedBefore.length, 1);
      const pausedAt = captures();

      // Resumed with room for a few pages' rows only: the disk fills and the crawl pauses itself.
      db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 2}`);
      db.prepare("UPDATE Crawl SET desired = 'run' WHERE id = ?").run(crawlId);
      await until('the pause for room', () => crawl().status === 'paused' && /disk is full/.test(crawl().error ?? ''), 60_000);
      assert.ok(readdirSync(warcDir).some((n) => n.endsWith('.warc.gz.open')), 'the last file was left open');
      const acknowledged = db.prepare("SELECT warcRecordId FROM Capture WHERE crawlId = ? AND recordType IN ('response', 'revisit')").pluck().all(crawlId) as string[];
      assert.ok(acknowledged.length > pausedAt && acknowledged.length < PAGES, `paused part-way, after more captures (${pausedAt}, then ${acknowledged.length})`);

      // Room is made, and the paused crawl exported.
      db.pragma('max_page_count = 1073741823');
      const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, createdAt) VALUES (?, 'pending', ?)").run(crawlId, sqlDate(new Date())).lastInsertRowid);
      const exportRow = () => db.prepare('SELECT status, error, files FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null; files: string };
      await until('the export ends', () => ['done', 'failed'].includes(exportRow().status), 60_000);
      const row = exportRow();
      assert.equal(row.status, 'done', row.error ?? '');
      const dir = join(dataDir, 'exports', String(exportId));
      const names = (JSON.parse(row.files) as { name: string }[]).map((f) => f.name);
      const warcs = names.filter((n) => n.endsWith('.warc.gz'));
      assert.ok(warcs.length >= 2, `the closed file and the one left open: ${names.join(', ')}`);
      const exported = new Set<string>();
      for (const name of warcs) {
        const check = await verifyWarcFile(join(dir, name));
        assert.deepEqual(check.errors, [], name);
      }
      const index = await verifyCdxj(join(dir, 'index.cdxj'), dir);
      assert.deepEqual(index.errors, []);
      // Every acknowledged capture is in the export, under its own record id.
      for (const name of warcs) {
        await scanGzipMembers(join(dir, name), (m) => {
          const id = field(parseWarcHead(m.head)?.fields ?? [], 'WARC-Record-ID');
          if (id) exported.add(id);
        }, 4096);
      }
      assert.deepEqual(acknowledged.filter((id) => !exported.has(id)), [], 'no acknowledged capture missing from the export');
      assert.equal(index.lines, acknowledged.length, 'one index line per capture');

      // Resumed afterwards, the crawl goes on to its end.
      db.prepare("UPDATE Crawl SET desired = 'run' WHERE id = ?").run(crawlId);
      await until('the end of the crawl', () => crawl().status === 'finished', 60_000);
      assert.equal(db.prepare("SELECT COUNT(DISTINCT url) FROM Capture WHERE crawlId = ? AND url LIKE '%/p/%'").pluck().get(crawlId), PAGES);
    } finally {
      await manager.shutdown();
      db.close();
    }
  });
});
