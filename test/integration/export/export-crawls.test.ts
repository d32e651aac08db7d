/**
 * An export may take other crawls of the same ICD besides the one it is started from (a
 * collection of a schedule's successive crawls). The request checks them in its transaction; while
 * the export is under way none of them is resumed or deleted; once it is made, deleting one of the
 * other crawls keeps the export and its files (they are copies), the export still naming the crawl;
 * deleting the crawl it was started from deletes it, as before.
 * Real parts: a migrated SQLite database, the request and delete functions the routes call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { icdSchema } from '../../../worker/icd/schema';
import { controlCrawl, deleteCrawlRow, requestExport } from '../../../worker/process/crawl-requests';
import { exportCrawlIds, otherCrawlsOf, otherCrawlsOfIcd } from '../../../worker/export/export-crawls';
import { exportUnderWay } from '../../../worker/export/export-job';
import { insertCrawl, insertLaterCrawl, migratedDatabase } from '../../support/crawl-rows';
import { withTempDir } from '../../support/temp-dir';

const finished = (db: ReturnType<typeof migratedDatabase>, id: number) => db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(id);
const ask = (others: number[]) => ({ requestedById: 1, selection: null, format: 'warc', pageText: false, otherCrawlIds: others });

test('an export takes other crawls of its ICD that may be exported, and refuses any other', async () => {
  await withTempDir('tm-export-crawls-', async (dir) => {
    const db = migratedDatabase(dir);
    try {
      const first = insertCrawl(db, icdSchema.parse({ name: 'Harbour', seeds: ['http://127.0.0.1:9/'] }));
      const second = insertLaterCrawl(db, first);
      const running = insertLaterCrawl(db, first);
      const elsewhere = insertCrawl(db, icdSchema.parse({ name: 'Other', seeds: ['http://127.0.0.1:9/'] }));
      for (const id of [first, second, elsewhere]) finished(db, id);
      db.prepare("UPDATE Crawl SET status = 'running' WHERE id = ?").run(running);

      const refusals: [number[], RegExp][] = [
        [[elsewhere], new RegExp(`^Crawl ${elsewhere} is a crawl of another ICD`)],
        [[running], new RegExp(`^Crawl ${running}: it is running`)],
        [[9999], /^Crawl 9999 does not exist/],
        [[first], /list only the others/],
      ];
      for (const [others, message] of refusals) {
        const outcome = requestExport(db, first, ask(others));
        assert.ok(typeof outcome === 'object' && 'refused' in outcome && message.test(outcome.refused), JSON.stringify(outcome));
      }
      assert.equal(db.prepare('SELECT COUNT(*) FROM Export').pluck().get(), 0, 'a refused request stores nothing');

      // What the export form offers: the ICD's other crawls, newest first, a running one saying why it cannot be taken.
      assert.deepEqual(otherCrawlsOfIcd(db, first).map((c) => [c.id, c.status, c.exportRefusal]), [
        [running, 'running', 'The crawl is running: pause, stop or let it finish before exporting'],
        [second, 'finished', null],
      ]);
      const outcome = requestExport(db, first, ask([second, second]));
      assert.ok(typeof outcome === 'object' && 'done' in outcome, JSON.stringify(outcome));
      assert.deepEqual(exportCrawlIds(db, outcome.done.id), [first, second]);
      assert.deepEqual(otherCrawlsOf(db, [outcome.done.id]).get(outcome.done.id), [{ id: second, name: 'Harbour' }]);
    } finally {
      db.close();
    }
  });
});

test('a crawl an export takes is neither resumed nor deleted while it is made; deleted later, the export and its files stay', async () => {
  await withTempDir('tm-export-crawls-', async (dir) => {
    const db = migratedDatabase(dir);
    try {
      const first = insertCrawl(db, icdSchema.parse({ name: 'Harbour', seeds: ['http://127.0.0.1:9/'] }));
      const second = insertLaterCrawl(db, first);
      for (const id of [first, second]) db.prepare("UPDATE Crawl SET status = 'paused', desired = 'pause' WHERE id = ?").run(id);
      const made = requestExport(db, first, ask([second]));
      assert.ok(typeof made === 'object' && 'done' in made);
      const exportId = made.done.id;

      assert.equal(exportUnderWay(db, second), exportId);
      const resume = controlCrawl(db, second, 'resume');
      assert.ok(typeof resume === 'object' && 'refused' in resume && new RegExp(`^Export ${exportId} of this crawl is under way`).test(resume.refused), JSON.stringify(resume));
      const del = deleteCrawlRow(db, second);
      assert.ok(typeof del === 'object' && 'refused' in del, JSON.stringify(del));

      // Made: its files are the export's own copies.
      const folder = join(dir, 'exports', String(exportId));
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'index.cdxj'), 'x\n');
      db.prepare("UPDATE Export SET status = 'done', files = ? WHERE id = ?").run(JSON.stringify([{ name: 'index.cdxj', bytes: 2, sha256: '' }]), exportId);
      assert.equal(exportUnderWay(db, second), null);

      const deleted = deleteCrawlRow(db, second);
      assert.ok(typeof deleted === 'object' && 'done' in deleted, JSON.stringify(deleted));
      assert.deepEqual(deleted.done, [], "no export of the deleted crawl's own: none to remove");
      assert.equal(db.prepare('SELECT status FROM Export WHERE id = ?').pluck().get(exportId), 'done', 'the export is kept');
      assert.ok(existsSync(join(folder, 'index.cdxj')), 'its files too');
      assert.deepEqual(otherCrawlsOf(db, [exportId]).get(exportId), [{ id: second, name: null }], 'still naming the crawl it took, now deleted');

      // The crawl it was started from takes its exports along, as before.
      const gone = deleteCrawlRow(db, first);
      assert.ok(typeof gone === 'object' && 'done' in gone);
      assert.deepEqual(gone.done, [exportId]);
      assert.equal(db.prepare('SELECT COUNT(*) FROM ExportCrawl').pluck().get(), 0);
    } finally {
      db.close();
    }
  });
});
