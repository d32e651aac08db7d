/**
 * A crawl an earlier version created with settings the current rules refuse (an exclude pattern
 * with a nested repetition was accepted before de68208): the worker cannot run it, and pauses it,
 * saying so in words at each field, until the archivist corrects them (stored-icd-correct.test.ts).
 * The crawl page showed zod's issues as raw JSON; and the worker marked it failed, for good.
 * Real parts: a migrated SQLite database and the worker's CrawlManager.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSqlite, sqlDate } from '../../../worker/store/sqlite';
import { applyMigrations, MIGRATIONS_DIR } from '../../../worker/store/migrator';
import { CrawlManager } from '../../../worker/process/crawl-manager';
import { withTempDir } from '../../support/temp-dir';

test('a paused crawl whose stored definition this version refuses stays paused, with the refused fields in words', { timeout: 30_000 }, () => withTempDir('tm-stored-icd-', async (dataDir) => {
  const db = openSqlite(join(dataDir, 'tidemark.db'));
  const manager = new CrawlManager({ db, dataDir, send: () => undefined });
  try {
    applyMigrations(db, MIGRATIONS_DIR);
    const now = sqlDate(new Date());
    const definition = JSON.stringify({ name: 'Old', seeds: ['http://127.0.0.1:9/'], scope: { exclude: ['(a+)+$'] }, politeness: { enabled: false } });
    db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Old', ?, ?, ?)").run(definition, now, now);
    const crawlId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (1, ?, 'Old', 'paused', 'run', ?)").run(definition, now).lastInsertRowid);
    manager.start();
    let row: { status: string; desired: string; error: string | null } | undefined;
    for (let i = 0; i < 100 && !row?.error; i++, await sleep(100)) row = db.prepare('SELECT status, desired, error FROM Crawl WHERE id = ?').get(crawlId) as typeof row;
    // Paused, not failed: a failed crawl could never be resumed, its captures stranded.
    assert.deepEqual([row!.status, row!.desired], ['paused', 'pause']);
    assert.match(row!.error!, /^This crawl's definition has settings this version of Tidemark refuses \(an earlier version accepted them\), so it cannot run:\n {2}scope\.exclude\.0: [^\n]*\nCorrect these settings \(Correct the refused settings, on the crawl's page\) and resume it\.$/);
    assert.doesNotMatch(row!.error!, /"code"/, 'no raw JSON');
  } finally {
    await manager.shutdown();
    db.close();
  }
}));
