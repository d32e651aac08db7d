import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../../worker/store/sqlite';
import { GroupCommit } from '../../../worker/crawler/group-commit';

function withDb(fn: (db: ReturnType<typeof openSqlite>) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-group-commit-'));
    const db = openSqlite(join(dir, 'db.sqlite'));
    db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY)');
    try {
      await fn(db);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test('jobs submitted close together share one transaction, run in submission order and resolve after it committed', withDb(async (db) => {
  const commits = new GroupCommit(db, 20, 100);
  const order: number[] = [];
  const seenByOthers: number[] = [];
  const jobs = [1, 2, 3].map((n) => commits.run(() => {
    order.push(n);
    db.prepare('INSERT INTO t (n) VALUES (?)').run(n);
    return n * 10;
  }));
  const results = await Promise.all(jobs.map(async (j) => {
    const v = await j;
    // Once a job resolved its rows are committed: a second connection sees them.
    const other = openSqlite(db.name);
    seenByOthers.push((other.prepare('SELECT COUNT(*) AS c FROM t').get() as { c: number }).c);
    other.close();
    return v;
  }));
  assert.deepEqual(results, [10, 20, 30]);
  assert.deepEqual(order, [1, 2, 3]);
  assert.deepEqual(seenByOthers, [3, 3, 3]);
}));

test('a job that throws rolls back alone and rejects alone', withDb(async (db) => {
  const commits = new GroupCommit(db, 20, 100);
  const ok1 = commits.run(() => db.prepare('INSERT INTO t (n) VALUES (1)').run());
  const bad = commits.run(() => {
    db.prepare('INSERT INTO t (n) VALUES (2)').run();
    db.prepare('INSERT INTO t (n) VALUES (1)').run(); // duplicate key
  });
  const ok2 = commits.run(() => db.prepare('INSERT INTO t (n) VALUES (3)').run());
  await ok1;
  await assert.rejects(bad, /UNIQUE/);
  await ok2;
  assert.deepEqual((db.prepare('SELECT n FROM t ORDER BY n').all() as { n: number }[]).map((r) => r.n), [1, 3]);
}));

test('a full group flushes at once without waiting for the delay', withDb(async (db) => {
  const commits = new GroupCommit(db, 60_000, 2);
  const a = commits.run(() => 'a');
  const b = commits.run(() => 'b');
  const late = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2000).unref());
  assert.deepEqual(await Promise.race([Promise.all([a, b]), late]), ['a', 'b']);
}));

test("the group's connection keeps statement journals in memory; other connections keep SQLite's default", withDb(async (db) => {
  assert.equal(db.pragma('temp_store', { simple: true }), 0);
  new GroupCommit(db);
  assert.equal(db.pragma('temp_store', { simple: true }), 2);
}));

test('a full disk that rolls back the whole transaction refuses every job of the group, and none after it runs or commits alone', withDb(async (db) => {
  db.exec('CREATE TABLE big (b BLOB)');
  const commits = new GroupCommit(db, 20, 100);
  const ran: number[] = [];
  // SQLite answers SQLITE_FULL once the database would pass this many pages, as on a full disk.
  db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 4}`);
  const jobs = [1, 2, 3, 4].map((n) => commits.run(() => {
    ran.push(n);
    db.prepare('INSERT INTO t (n) VALUES (?)').run(n);
    if (n === 2) db.prepare('INSERT INTO big (b) VALUES (?)').run(Buffer.alloc(64 * 1024));
    return n;
  }));
  const settled = await Promise.allSettled(jobs);
  assert.deepEqual(settled.map((s) => (s.status === 'rejected' ? (s.reason as { code?: string }).code : 'ok')), ['SQLITE_FULL', 'SQLITE_FULL', 'SQLITE_FULL', 'SQLITE_FULL']);
  assert.deepEqual(ran, [1, 2], 'no job ran after the transaction was gone');
  db.pragma('max_page_count = 1073741823');
  assert.equal(db.prepare('SELECT COUNT(*) FROM t').pluck().get(), 0, 'nothing of the group was committed');
}));
