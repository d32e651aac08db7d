/**
 * A collection of three crawls of one ICD, each with a thousand captures (its index several of the
 * merge's batches, made 16 KB for the test, and its selection several batches of rows, made 200; the
 * selection's records more than the 2,000 its collection plan reads at a time), whose URLs
 * interleave across the crawls and repeat within each: the export's CDXJ index is what sorting
 * every line in memory gave before the index was merged and sorted on disk (byte for byte), each
 * capture once; with a selection and as a WACZ, the index is sorted and holds each selected capture
 * once, and pages.jsonl lists each crawl's pages in turn, oldest crawl first, each page once (its
 * first capture), by depth. Real parts: the crawl's WARC writer, a migrated SQLite database, the
 * export job.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runExport } from '../../../worker/export/export-job';
import { requestExport } from '../../../worker/process/crawl-requests';
import { icdSchema } from '../../../worker/icd/schema';
import { compareBytewise, INDEX_NAME, parseCdxjLine } from '../../../worker/warc/cdxj-index';
import { cdxTimestamp } from '../../../worker/warc/warc-fields';
import { insertCrawl, insertLaterCrawl, migratedDatabase } from '../../support/crawl-rows';
import { writeManyCaptures } from '../../support/many-captures';
import { readZip } from '../../support/read-wacz';
import { withTempDir } from '../../support/temp-dir';

const CAPTURES = 1000;
/** The export's batches, made small (1 MB of index lines and 5,000 rows by default): each crawl's index and selection spans several. */
const INDEX_BATCH_BYTES = 16 * 1024;
const SELECTION_BATCH_ROWS = 200;
/** Each URL twice in a crawl (the i-th and the (i + CAPTURES / 2)-th capture), on 7 hosts. */
const urlOf = (i: number) => `http://host${(i % (CAPTURES / 2)) % 7}.example.org/p/${i % (CAPTURES / 2)}`;

async function withThreeCrawls(fn: (c: { dir: string; db: ReturnType<typeof migratedDatabase>; ids: number[]; exportOf(format: 'warc' | 'wacz', selection: object | null): Promise<string> }) => Promise<void>): Promise<void> {
  await withTempDir('tm-collection-merge-', async (dir) => {
    const db = migratedDatabase(dir);
    try {
      db.prepare("INSERT INTO User (username, passwordHash, role, createdAt) VALUES ('m', 'x', 'manager', datetime('now'))").run();
      const first = insertCrawl(db, icdSchema.parse({ name: 'Daily', seeds: [urlOf(0)] }));
      const ids = [first, insertLaterCrawl(db, first), insertLaterCrawl(db, first)];
      const warcDirOf = (id: number) => join(dir, 'warcs', String(id));
      for (const [day, id] of ids.entries()) await writeManyCaptures(db, warcDirOf(id), id, CAPTURES, day, urlOf);
      const last = ids.at(-1)!;
      const exportOf = async (format: 'warc' | 'wacz', selection: object | null) => {
        const outcome = requestExport(db, last, { requestedById: 1, selection: selection && JSON.stringify(selection), format, pageText: false, otherCrawlIds: ids.slice(0, -1) });
        assert.ok(typeof outcome === 'object' && 'done' in outcome, JSON.stringify(outcome));
        const exportDir = join(dir, 'exports', String(outcome.done.id));
        await runExport(db, {
          exportId: outcome.done.id, crawlId: last, warcDir: warcDirOf(last), exportDir, otherCrawl: (id) => ({ warcDir: warcDirOf(id) }),
          indexBatchBytes: INDEX_BATCH_BYTES, selectionBatchRows: SELECTION_BATCH_ROWS,
        });
        const row = db.prepare('SELECT status, error FROM Export WHERE id = ?').get(outcome.done.id) as { status: string; error: string | null };
        assert.equal(row.status, 'done', row.error ?? '');
        return exportDir;
      };
      await fn({ dir, db, ids, exportOf });
    } finally {
      db.close();
    }
  });
}

/** The index's lines, asserted sorted in byte order. */
function sortedLines(index: string): string[] {
  const lines = index.split('\n').filter(Boolean);
  assert.ok(lines.every((line, i) => i === 0 || compareBytewise(lines[i - 1]!, line) <= 0), 'sorted in byte order');
  return lines;
}

test('a collection of three crawls as they are: its index is every crawl\'s lines sorted, as sorting them in memory gave, each capture once', { timeout: 180_000 }, async () => {
  await withThreeCrawls(async ({ dir, db, ids, exportOf }) => {
    const exportDir = await exportOf('warc', null);
    const index = readFileSync(join(exportDir, INDEX_NAME), 'utf8');
    // What the export wrote before: every crawl's lines, sorted together in memory.
    const all = ids.flatMap((id) => readFileSync(join(dir, 'warcs', String(id), INDEX_NAME), 'utf8').split('\n').filter(Boolean).map((l) => `${l}\n`));
    assert.ok(readFileSync(join(dir, 'warcs', String(ids[0]), INDEX_NAME)).length > 4 * INDEX_BATCH_BYTES, 'each crawl\'s index is several batches of the merge');
    assert.equal(index, all.sort(compareBytewise).join(''));
    const places = sortedLines(index).map((l) => { const j = parseCdxjLine(l)!.json; return `${j.filename}@${j.offset}`; });
    const rows = db.prepare('SELECT warcFile, warcOffset FROM Capture').all() as { warcFile: string; warcOffset: number }[];
    assert.equal(places.length, 3 * CAPTURES);
    assert.deepEqual(new Set(places), new Set(rows.map((r) => `${r.warcFile}@${r.warcOffset}`)), 'each capture once');
  });
});

test('a selection of three crawls as a WACZ: its index is sorted with each selected capture once, its page list each crawl\'s pages in turn, each once', { timeout: 180_000 }, async () => {
  await withThreeCrawls(async ({ db, ids, exportOf }) => {
    const hosts = Array.from({ length: 6 }, (_, h) => `host${h + 1}.example.org`);
    const exportDir = await exportOf('wacz', { hosts, requisites: false });
    const [wacz] = readdirSync(exportDir);
    const entries = await readZip(readFileSync(join(exportDir, wacz!)));
    const lines = sortedLines(entries.get('indexes/index.cdx')!.bytes.toString('utf8'));
    // Before, the same lines were sorted in memory: sorting them again changes nothing.
    assert.deepEqual([...lines].sort(compareBytewise), lines);
    const captured = lines.map((l) => { const p = parseCdxjLine(l)!; return `${p.json.url} ${p.timestamp}`; });
    const selected = db.prepare("SELECT url, fetchedAt FROM Capture WHERE url NOT LIKE 'http://host0.%'").all() as { url: string; fetchedAt: string }[];
    assert.equal(captured.length, selected.length);
    assert.ok(lines.join('\n').length > 4 * INDEX_BATCH_BYTES, 'the index is several batches of the merge');
    assert.ok(selected.length > 3 * 2 * SELECTION_BATCH_ROWS, 'each crawl\'s selection is several batches of rows');
    assert.deepEqual(new Set(captured), new Set(selected.map((r) => `${r.url} ${cdxTimestamp(new Date(r.fetchedAt).toISOString())}`)), 'each selected capture once');

    const [header, ...pages] = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
    assert.deepEqual(JSON.parse(header!), { format: 'json-pages-1.0', id: 'pages', title: 'All Pages' });
    // Each crawl's pages in turn (oldest first), each URL once at its first capture, by depth then capture.
    const expected = ids.flatMap((id) => db.prepare(
      `SELECT url, fetchedAt, title FROM Capture c WHERE crawlId = ? AND url NOT LIKE 'http://host0.%'
       AND NOT EXISTS (SELECT 1 FROM Capture e WHERE e.crawlId = c.crawlId AND e.url = c.url AND e.id < c.id) ORDER BY depth, id`,
    ).all(id) as { url: string; fetchedAt: string; title: string }[]);
    assert.equal(expected.length * 2, selected.length, 'each page once, though captured twice');
    assert.deepEqual(pages.map((l) => JSON.parse(l)), expected.map((r, i) => ({ id: `p${i + 1}`, url: r.url, ts: new Date(r.fetchedAt).toISOString().replace(/\.\d{3}Z$/, 'Z'), title: r.title })));
  });
});
