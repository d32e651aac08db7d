/**
 * A cancelled export stops in whichever step it is in: packaging a WACZ (after its files were
 * verified), writing a collection's own WARC files, copying the crawl's files where they cannot be
 * hard-linked. Before, none of these steps could be stopped; now each takes the export's abort
 * signal and stops within the file it is on, leaving nothing behind. Real parts: a migrated SQLite
 * database, 1 MB records written by the crawl's own writer, the export job as the worker runs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runExport } from '../../../worker/export/export-job';
import { cancelExport } from '../../../worker/export/export-cancel';
import { writeCollection } from '../../../worker/export/collection-export';
import { snapshotCrawlFiles } from '../../../worker/export/crawl-snapshot';
import { crawlWarcId } from '../../../worker/warc';
import { withCrawl } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';
import { writeLargeWarcs } from '../../support/large-warcs';

test('a WACZ export cancelled while it packages stops within a second and leaves no package', { timeout: 120_000 }, async () => {
  await withCrawl('tm-export-cancel-wacz-', { name: 'Harbour', seeds: ['http://127.0.0.1:9/'] }, async ({ dir, db, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    await writeLargeWarcs(warcDir, crawlWarcId(crawlId), 160, 80);
    db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
    const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, format, createdAt) VALUES (?, 'pending', 'wacz', datetime('now'))").run(crawlId).lastInsertRowid);
    const exportDir = join(dir, 'exports', String(exportId));
    let ended = 0;
    const job = runExport(db, { exportId, crawlId, warcDir, exportDir }).then(() => (ended = Date.now()));
    const progress = () => db.prepare('SELECT progress FROM Export WHERE id = ?').pluck().get(exportId) as number;
    // Past verifying (half of the progress), into the package.
    while (progress() < 0.6 && !ended) await sleep(5);
    assert.ok(!ended, 'still packaging');
    assert.ok(readdirSync(exportDir).some((n) => n.endsWith('.wacz.open')), 'the package is being written');
    const asked = Date.now();
    assert.ok('done' in (cancelExport(db, exportId, 'mara') as object));
    await job;
    assert.ok(ended - asked < 1000, `stopped ${ended - asked} ms after the cancel`);
    assert.ok(!existsSync(exportDir), 'no package, partial or whole, and no loose file');
    const row = db.prepare('SELECT status, cancelledBy, error, files FROM Export WHERE id = ?').get(exportId);
    assert.deepEqual(row, { status: 'cancelled', cancelledBy: 'mara', error: null, files: '[]' });
    assert.equal(readdirSync(warcDir).filter((n) => n.endsWith('.warc.gz')).length, 2, "the crawl's files are there");
  });
});

test("a collection's writing and a copy across file systems stop mid-file on an aborted signal, leaving nothing", { timeout: 120_000 }, async () => {
  await withTempDir('tm-export-cancel-steps-', async (dir) => {
    const source = join(dir, 'crawl');
    const files = await writeLargeWarcs(source, 'steps', 120);

    const collection = new AbortController();
    const outDir = join(dir, 'collection');
    let reached = 0;
    const writing = writeCollection({
      sources: [{ dir: source, files }], outDir, prefix: 'collection-steps', chosen: new Set(['every']), revisitDigests: new Set(),
      description: 'all', signal: collection.signal,
      // Aborted a fifth of the way through the scan of its one file.
      onProgress: (f) => {
        reached = f;
        if (f >= 0.1) collection.abort(new Error('cancelled'));
      },
    });
    await assert.rejects(writing, /cancelled/);
    assert.ok(reached < 0.2, `stopped where it was (${reached})`);
    assert.ok(!existsSync(outDir), 'nothing written is left');

    const copy = new AbortController();
    const snapshot = join(dir, 'snapshot');
    let copied = 0;
    const copying = snapshotCrawlFiles(source, snapshot, files, {
      // Another file system: no hard link, a streamed copy.
      link: () => Promise.reject(Object.assign(new Error('cross-device link'), { code: 'EXDEV' })),
      signal: copy.signal,
      onProgress: (bytes, total) => {
        copied = bytes / total;
        if (copied >= 0.2) copy.abort(new Error('cancelled'));
      },
    });
    await assert.rejects(copying, /cancelled/);
    assert.ok(copied < 0.5, `stopped within the file (${copied})`);
    assert.deepEqual(readdirSync(snapshot), [], 'no partial copy left');
  });
});
