/**
 * Deleting captures (a crawl deleted) finds the web objects and annotations that point at each one
 * through an index: without one, SQLite read the whole WebObject table for each capture deleted
 * (2,000 captures of a crawl took 4.8 s while another crawl kept 20,000 web objects; a crawl of
 * 195,000 captures ~8 minutes, the cockpit's thread and the write lock held). Real SQLite, migrated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { icdSchema } from '../../../worker/icd/schema';
import { insertCrawl, migratedDatabase } from '../../support/crawl-rows';
import { withTempDir } from '../../support/temp-dir';

test('the lookups of a deleted capture\'s web objects and annotations use an index, and deleting captures keeps other crawls\' objects', async () => {
  await withTempDir('tm-capture-children-', async (dir) => {
    const db = migratedDatabase(dir);
    try {
      // The lookups SQLite makes for WebObject's ON DELETE SET NULL and Annotation's ON DELETE CASCADE.
      for (const table of ['WebObject', 'Annotation']) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT 1 FROM "${table}" WHERE captureId = ?`).all(1) as { detail: string }[]).map((r) => r.detail).join('\n');
        assert.match(plan, new RegExp(`^SEARCH ${table} USING (COVERING )?INDEX \\w+ \\(captureId=\\?\\)`), `${table}: ${plan}`);
      }
      const deleted = insertCrawl(db, icdSchema.parse({ name: 'Deleted', seeds: ['http://a.test/'] }));
      const kept = insertCrawl(db, icdSchema.parse({ name: 'Kept', seeds: ['http://b.test/'] }));
      const capture = db.prepare("INSERT INTO Capture (crawlId, url, status, size, recordType, warcFile, warcOffset, warcLength, fetchedAt, durationMs) VALUES (?, ?, 200, 10, 'response', 'f.warc.gz', 0, 10, datetime('now'), 1)");
      const object = db.prepare("INSERT INTO WebObject (crawlId, captureId, url, host, type, application, rule, fields, createdAt) VALUES (?, ?, ?, 'a.test', 'post', 'forum', 'r', '{}', datetime('now'))");
      const ownCapture = Number(capture.run(deleted, 'http://a.test/').lastInsertRowid);
      const otherCapture = Number(capture.run(kept, 'http://b.test/').lastInsertRowid);
      object.run(deleted, ownCapture, 'http://a.test/');
      object.run(kept, otherCapture, 'http://b.test/');
      db.prepare("INSERT INTO Annotation (crawlId, captureId, text, createdAt) VALUES (?, ?, 'checked', datetime('now'))").run(deleted, ownCapture);
      db.prepare('DELETE FROM Crawl WHERE id = ?').run(deleted);
      assert.deepEqual(db.prepare('SELECT crawlId, captureId FROM WebObject').all(), [{ crawlId: kept, captureId: otherCapture }]);
      assert.equal(db.prepare('SELECT COUNT(*) FROM Annotation').pluck().get(), 0);
    } finally {
      db.close();
    }
  });
});
