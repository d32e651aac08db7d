import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../../worker/store/sqlite';
import { GroupCommit } from '../../../worker/crawler/group-commit';
import { CommitSequencer, commitInOrder } from '../../../worker/crawler/commit-sequencer';

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

test('commitInOrder: once a capture is refused, none behind it is acknowledged, in its group or in a later one', withDb(async (db) => {
  const commits = new GroupCommit(db, 5, 100);
  const seq = new CommitSequencer();
  const acknowledged: number[] = [];
  const givenBack: number[] = [];
  const queue = (ticket: number, fail = false) =>
    commitInOrder(seq, commits, ticket, () => {
      if (fail) throw new Error('refused');
      db.prepare('INSERT INTO t (n) VALUES (?)').run(ticket);
      acknowledged.push(ticket);
    }, () => void givenBack.push(ticket));
  const [t0, t1, t2, t3] = [seq.ticket(), seq.ticket(), seq.ticket(), seq.ticket()];
  // One group: 0 commits, 1 is refused, 2 sits behind it in the WARC file.
  const group = [queue(t0), queue(t1, true), queue(t2)];
  assert.deepEqual((await Promise.allSettled(group)).map((s) => s.status), ['fulfilled', 'rejected', 'fulfilled']);
  // A later group.
  await queue(t3);
  assert.deepEqual(acknowledged, [t0]);
  assert.deepEqual(givenBack, [t2, t3]);
  assert.equal(seq.refusedAny, true);
  assert.deepEqual(db.prepare('SELECT n FROM t').pluck().all(), [t0]);
}));

test('commitInOrder: a group rolled back whole refuses every capture in it and all behind them', withDb(async (db) => {
  db.exec('CREATE TABLE big (b BLOB)');
  const commits = new GroupCommit(db, 5, 100);
  const seq = new CommitSequencer();
  const givenBack: number[] = [];
  const queue = (ticket: number, bytes: number) =>
    commitInOrder(seq, commits, ticket, () => void db.prepare('INSERT INTO big (b) VALUES (?)').run(Buffer.alloc(bytes)), () => void givenBack.push(ticket));
  const [t0, t1, t2] = [seq.ticket(), seq.ticket(), seq.ticket()];
  db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 4}`);
  assert.deepEqual((await Promise.allSettled([queue(t0, 10), queue(t1, 64 * 1024)])).map((s) => s.status), ['rejected', 'rejected']);
  // Small enough to fit: still not acknowledged behind the refused ones.
  await queue(t2, 10);
  db.pragma('max_page_count = 1073741823');
  assert.deepEqual(givenBack, [t2]);
  assert.equal(seq.mayAcknowledge(t0), false);
  assert.equal(db.prepare('SELECT COUNT(*) FROM big').pluck().get(), 0);
}));
