/**
 * A collection's pages bring what they embed, and the export preview counts what the export writes.
 * Found by reading the code: only HTML pages have a coherence status, so a collection of the pages
 * proved unchanged held no image, stylesheet or script, and did not replay (nor did a URL filter
 * matching pages only); and the preview counted neither those nor the captures redirects lead to.
 * Now a selection takes its pages' requisites (to three embed hops, their redirects followed)
 * unless it filters by MIME type; a requisite that is a revisit brings the response it repeats;
 * the preview counts the collection the export writes. Real parts: a loopback site, the engine, a
 * migrated SQLite database, the export job writing the collection, its WARC records read back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { runExport } from '../../../worker/export/export-job';
import { collectionSize } from '../../../worker/export/collection-additions';
import { collectionSelectionSchema } from '../../../worker/export/collection-plan';
import { verifyCdxj } from '../../../worker/warc';
import { withSiteCrawl } from '../../support/site-crawl';
import { crawlToTheEnd } from '../../support/finished-crawl';
import { capturesIn, harbourSite as site } from '../../support/requisites-site';

/** Exports `selection` of the crawl into its own folder; checks it is done and its index sound; returns the folder. */
async function exportOf(db: Database.Database, crawlId: number, dir: string, selection: object): Promise<string> {
  const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, selection) VALUES (?, 'pending', ?)").run(crawlId, JSON.stringify(selection)).lastInsertRowid);
  const exportDir = join(dir, `export-${exportId}`);
  await runExport(db, { exportId, crawlId, warcDir: join(dir, 'warcs'), exportDir });
  const row = db.prepare('SELECT status, error FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null };
  assert.equal(row.status, 'done', row.error ?? '');
  assert.deepEqual((await verifyCdxj(join(exportDir, 'index.cdxj'), exportDir)).errors, []);
  return exportDir;
}

const HARBOUR_WHOLE = [
  'response /frame', 'response /harbour', 'response /img/boat.png', 'response /img/frame.png', 'response /img/sea.png', 'response /style.css', 'response /tides.js',
];

test('a collection of pages holds their requisites, a revisit among them with its response; a MIME filter keeps to its types; the preview counts what is written', { timeout: 60_000 }, async () => {
  const fields = { name: 'Harbour', politeness: { enabled: false, concurrency: 1, respectRobots: false }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-collection-requisites-', site, fields, async (crawl) => {
    const { dir, db, crawlId, origin } = crawl;
    const warcDir = await crawlToTheEnd(crawl);
    assert.equal(db.prepare('SELECT recordType FROM Capture WHERE url = ?').pluck().get(`${origin}/img/copy-of-boat.png`), 'revisit', 'the copy was archived as a revisit');
    const written = async (selection: object) => {
      const exportDir = await exportOf(db, crawlId, dir, selection);
      const records = capturesIn(exportDir, origin);
      // The preview counts the captures the export writes: the same number.
      const preview = await collectionSize(db, crawlId, warcDir, collectionSelectionSchema.parse(selection));
      assert.equal(preview?.captures, records.length, `the preview of ${JSON.stringify(selection)} counts what was written: ${records.join(', ')}`);
      return records;
    };

    // The old code wrote the page alone: ['response /harbour'].
    assert.deepEqual(await written({ urlContains: '/harbour', statusClasses: ['2xx'] }), HARBOUR_WHOLE, 'the page, its stylesheet and its image, its script, its iframe and the image in it');
    // A requisite that is a revisit brings the response holding its payload (the old code: ['response /quay']).
    assert.deepEqual(await written({ urlContains: '/quay' }), ['response /img/boat.png', 'response /quay', 'revisit /img/copy-of-boat.png']);
    // A redirect brings the page it leads to, which brings its requisites (the old preview counted 2, the export wrote 2).
    assert.deepEqual(await written({ urlContains: '/old/' }), [...HARBOUR_WHOLE, 'response /old/harbour'].sort());
    // Only HTML asked for: only HTML written, the iframe's page not either (requisites are off with a MIME filter)…
    assert.deepEqual(await written({ mimeTypes: ['text/html'], urlContains: '/harbour' }), ['response /harbour']);
    // …unless asked for, then of the types asked for only.
    assert.deepEqual(await written({ mimeTypes: ['text/html', 'image/'], urlContains: '/harbour', requisites: true }), ['response /frame', 'response /harbour', 'response /img/boat.png', 'response /img/frame.png']);
    // Requisites refused: the page alone, as before.
    assert.deepEqual(await written({ urlContains: '/harbour', statusClasses: ['2xx'], requisites: false }), ['response /harbour']);
  });
});

test('a collection of the pages proved unchanged holds their requisites (it held the pages alone), not a changed page\'s', { timeout: 60_000 }, async () => {
  const fields = { name: 'Harbour, twice', politeness: { enabled: false, concurrency: 1, respectRobots: false }, limits: { maxRetries: 0 }, coherence: { mode: 'visit-revisit' } };
  await withSiteCrawl('tm-coherence-requisites-', site, fields, async (crawl) => {
    const { dir, db, crawlId, origin } = crawl;
    const warcDir = await crawlToTheEnd(crawl);
    const changed = db.prepare("SELECT url FROM CoherencePage WHERE crawlId = ? AND status != 'unchanged'").pluck().all(crawlId);
    assert.deepEqual(changed, [`${origin}/quay`], 'the quay changed between visit and revisit');
    const selection = { coherence: ['unchanged'] };
    const exportDir = await exportOf(db, crawlId, dir, selection);
    const records = capturesIn(exportDir, origin);
    // Each unchanged page's visit and revisit (the iframe's page is one), and what they embed, captured at the visit.
    assert.deepEqual(records, [
      'response /', 'response /frame', 'response /harbour', 'response /img/boat.png', 'response /img/frame.png', 'response /img/sea.png', 'response /style.css', 'response /tides.js',
      'revisit /', 'revisit /frame', 'revisit /harbour',
    ]);
    const preview = await collectionSize(db, crawlId, warcDir, collectionSelectionSchema.parse(selection));
    assert.equal(preview?.captures, records.length, 'the preview counts what was written');
  });
});
