/**
 * The report's mimeTypes and records read the crawl's capture tallies (CaptureTally), which triggers
 * keep as captures are stored: grouping the captures themselves read all of a crawl's, seconds at
 * each poll of the report at 1,000,000. Real parts: a loopback site, the engine, a migrated SQLite file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { readCapturesReport } from '../../../worker/crawler/captures-report';
import { deleteCrawlRow } from '../../../worker/process/crawl-requests';
import { deleteCrawlRows } from '../../../worker/process/crawl-deletion';
import { icdSchema } from '../../../worker/icd/schema';
import { until } from '../../support/engine-run';
import { insertCrawl, insertCrawlRows, migratedDatabase } from '../../support/crawl-rows';
import { withSiteCrawl, type SiteCrawl } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

/** The report's mimeTypes and records as they were read before the tallies: grouped over the crawl's captures. */
function groupedCaptures(db: Database.Database, crawlId: number): ReturnType<typeof readCapturesReport> {
  return {
    mimeTypes: db.prepare('SELECT mime, COUNT(*) AS captures, SUM(size) AS bytes FROM Capture WHERE crawlId = ? GROUP BY mime ORDER BY captures DESC, mime').all(crawlId) as never,
    records: db
      .prepare('SELECT recordType, COUNT(*) AS captures, SUM(size) AS bytes, SUM(warcLength) AS warcBytes FROM Capture WHERE crawlId = ? GROUP BY recordType ORDER BY recordType DESC')
      .all(crawlId) as never,
  };
}

/** The crawl's tally rows against a recount of its captures by the same key. */
function assertTalliesRecount(db: Database.Database, crawlId: number, when: string): void {
  const recount = db
    .prepare("SELECT IFNULL(mime, '') AS mime, recordType, COUNT(*) AS captures, SUM(size) AS bytes, SUM(warcLength) AS warcBytes FROM Capture WHERE crawlId = ? GROUP BY 1, 2 ORDER BY 1, 2")
    .all(crawlId);
  assert.deepEqual(db.prepare('SELECT mime, recordType, captures, bytes, warcBytes FROM CaptureTally WHERE crawlId = ? ORDER BY 1, 2').all(crawlId), recount, when);
}

const PAGES = 30;

/**
 * `/` links to PAGES pages, two pages of the same bytes (the second a revisit), a body without a
 * Content-Type, an image and a missing page; each numbered page links to one deeper page, which waits
 * until `gate` resolves, so a run can be stopped part-way.
 */
function siteWithGate(gate: Promise<void>, deepRequested: () => void): RequestListener {
  return (req, res) => {
    const path = req.url ?? '/';
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>${body}`);
    if (path === '/') {
      const pages = Array.from({ length: PAGES }, (_, i) => `<a href="/p/${i}">${i}</a>`).join(' ');
      return html(`${pages} <a href="/dup/a">a</a> <a href="/dup/b">b</a> <a href="/raw">raw</a> <img src="/quay.png"> <a href="/missing">gone</a>`);
    }
    if (path.startsWith('/dup/')) return html('<p>the same bytes twice</p>');
    if (path === '/raw') return void res.writeHead(200).end('no media type given');
    if (path === '/quay.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('89504e470d0a1a0a71756179', 'hex'));
    if (path.startsWith('/p/')) return html(`<p>notice ${path}</p><a href="/deep${path}">deeper</a>`);
    if (path.startsWith('/deep/')) {
      deepRequested();
      return void gate.then(() => html(`<p>deep notice ${path} ${'tide '.repeat(Number(path.split('/').pop()))}</p>`));
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  };
}

test('after a crawl stopped part-way and resumed to its end, the report from the tallies is the grouping of the captures, and reads no capture', { timeout: 60_000 }, async () => {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let deep = 0;
  await withSiteCrawl('tm-capture-tallies-', siteWithGate(gate, () => deep++), { name: 'Tallies' }, async (crawl: SiteCrawl) => {
    const { db, crawlId, dir } = crawl;
    const engineOf = () => new CrawlEngine({ crawlId, icd: crawl.icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    const captures = () => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(crawlId) as number;

    const first = engineOf();
    const run = first.run();
    await until('deeper pages asked for', () => deep > 0);
    const stopping = first.stop();
    // Deeper pages answered while the run stops: committed by it or fetched again by the next.
    open();
    await stopping;
    assert.equal(await run, 'stopped');
    const partWay = captures();
    assertTalliesRecount(db, crawlId, 'after the stopped run');

    assert.equal(await engineOf().run(), 'finished');
    assert.ok(captures() > partWay, `the resumed run stored captures: ${partWay} before, ${captures()} after`);
    assertTalliesRecount(db, crawlId, 'after the resumed run');
    const grouped = groupedCaptures(db, crawlId);
    const mimes = grouped.mimeTypes.map((m) => m.mime);
    assert.ok(mimes.includes(null) && mimes.includes('image/png') && mimes.includes('text/html'), `the site's kinds of capture: ${JSON.stringify(mimes)}`);
    assert.deepEqual(grouped.records.map((r) => r.recordType), ['revisit', 'response']);

    // Read as the server reads it, on a connection of its own, and what it asks SQLite.
    const statements: string[] = [];
    const reader = new Database(join(dir, 'state.db'), { readonly: true, verbose: (sql) => statements.push(String(sql)) });
    try {
      assert.deepEqual(readCapturesReport(reader, crawlId), grouped);
      assert.deepEqual(statements.filter((sql) => /\bCapture\b/.test(sql)), [], 'the captures themselves are not read');
    } finally {
      reader.close();
    }
  });
});

test('a deleted crawl\'s tallies go with it, in its batches; another crawl\'s stay as its captures are', { timeout: 60_000 }, async () => {
  await withTempDir('tm-capture-tallies-delete-', async (dir) => {
    const db = migratedDatabase(dir);
    try {
      const icd = icdSchema.parse({ name: 'Harbour', seeds: ['http://h.test/'] });
      const deleted = insertCrawl(db, icd);
      const kept = insertCrawl(db, icd);
      db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop'").run();
      insertCrawlRows(db, deleted, 1_200);
      insertCrawlRows(db, kept, 300);
      db.prepare("UPDATE Capture SET mime = NULL WHERE crawlId = ? AND id % 7 = 0").run(kept);
      assertTalliesRecount(db, kept, 'before');
      const keptTallies = db.prepare('SELECT * FROM CaptureTally WHERE crawlId = ? ORDER BY mime').all(kept);
      assert.equal(keptTallies.length, 2, 'text/html and none');

      assert.deepEqual(deleteCrawlRow(db, deleted), { done: [] });
      const { statements } = await deleteCrawlRows(db, deleted, async () => undefined, 500);
      assert.ok(statements > 3, 'in batches');
      assert.equal(db.prepare('SELECT COUNT(*) FROM CaptureTally WHERE crawlId = ?').pluck().get(deleted), 0);
      assert.equal(db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(deleted), 0);
      assert.deepEqual(db.prepare('SELECT * FROM CaptureTally WHERE crawlId = ? ORDER BY mime').all(kept), keptTallies);
    } finally {
      db.close();
    }
  });
});

test('a capture deleted alone or with its counted columns changed is counted again: the tallies stay a recount', async () => {
  await withTempDir('tm-capture-tallies-change-', async (dir) => {
    const db = migratedDatabase(dir);
    try {
      const crawlId = insertCrawl(db, icdSchema.parse({ name: 'Changes', seeds: ['http://h.test/'] }));
      const other = insertCrawl(db, icdSchema.parse({ name: 'Other', seeds: ['http://h.test/'] }));
      const insert = db.prepare("INSERT INTO Capture (crawlId, url, status, mime, size, recordType, warcFile, warcOffset, warcLength, fetchedAt, durationMs) VALUES (?, ?, 200, ?, ?, ?, 'a.warc.gz', ?, ?, datetime('now'), 0)");
      const mimes = ['text/html', null, 'image/png', 'text/css'];
      db.transaction(() => {
        for (let i = 0; i < 400; i++) insert.run(crawlId, `http://h.test/${i}`, mimes[i % 4], 100 + i, i % 3 ? 'response' : 'revisit', i * 1_000, 300 + i);
      })();
      assertTalliesRecount(db, crawlId, 'as inserted');
      db.prepare("UPDATE Capture SET warcFile = 'moved.warc.gz', title = 'not counted' WHERE id % 5 = 0").run();
      db.prepare("UPDATE Capture SET mime = 'text/plain', size = size * 2 WHERE mime IS NULL AND id % 2 = 0").run();
      db.prepare("UPDATE Capture SET recordType = 'revisit', warcLength = 10 WHERE recordType = 'response' AND id % 3 = 1").run();
      assertTalliesRecount(db, crawlId, 'after the updates');
      // Every text/css capture goes: its rows go with them, as its groups do from a GROUP BY.
      db.prepare("DELETE FROM Capture WHERE mime = 'text/css' OR id % 11 = 0").run();
      assertTalliesRecount(db, crawlId, 'after the deletions');
      assert.equal(db.prepare("SELECT COUNT(*) FROM CaptureTally WHERE mime = 'text/css'").pluck().get(), 0);
      db.prepare('UPDATE Capture SET crawlId = ? WHERE id % 2 = 1').run(other);
      assertTalliesRecount(db, crawlId, 'after captures moved to another crawl');
      assertTalliesRecount(db, other, 'the other crawl, which got them');
      assert.deepEqual(readCapturesReport(db, crawlId), groupedCaptures(db, crawlId));
    } finally {
      db.close();
    }
  });
});
