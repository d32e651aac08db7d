/**
 * runInTransaction: one wrapper per connection, with db.transaction's semantics (commit on return,
 * roll back on a throw, a savepoint when nested), taking the write lock first. The real SQLite
 * driver, in memory, and two connections to one file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSqlite, runInReadTransaction, runInTransaction } from '../../../worker/store/sqlite';
import { withTempDir } from '../../support/temp-dir';

function tableOfNumbers() {
  const db = openSqlite(':memory:');
  db.exec('CREATE TABLE n (v INTEGER)');
  const insert = db.prepare('INSERT INTO n (v) VALUES (?)');
  const values = () => db.prepare('SELECT v FROM n ORDER BY v').pluck().all();
  return { db, insert, values };
}

test('a body that returns is committed and its value returned; one that throws is rolled back and the error passed on', () => {
  const { db, insert, values } = tableOfNumbers();
  assert.equal(runInTransaction(db, () => { insert.run(1); insert.run(2); return 'done'; }), 'done');
  assert.throws(() => runInTransaction(db, () => { insert.run(3); throw new Error('refused'); }), /refused/);
  assert.deepEqual(values(), [1, 2]);
  assert.equal(db.inTransaction, false);
  db.close();
});

test('nested in a transaction it is a savepoint: an inner throw, caught, undoes only the inner writes', () => {
  const { db, insert, values } = tableOfNumbers();
  runInTransaction(db, () => {
    insert.run(1);
    assert.throws(() => runInTransaction(db, () => { insert.run(2); throw new Error('inner'); }));
    assert.equal(db.inTransaction, true, 'the outer transaction is still open');
    runInTransaction(db, () => insert.run(3));
  });
  assert.deepEqual(values(), [1, 3]);
  db.close();
});

test('each connection has its own wrapper: a transaction on one does not begin on the other', () => {
  const a = tableOfNumbers();
  const b = tableOfNumbers();
  runInTransaction(a.db, () => {
    assert.equal(b.db.inTransaction, false);
    runInTransaction(b.db, () => b.insert.run(7));
    a.insert.run(5);
  });
  assert.deepEqual(a.values(), [5]);
  assert.deepEqual(b.values(), [7]);
  a.db.close();
  b.db.close();
});

// A deferred transaction that read, then wrote after another process had committed, failed at once
// with "database is locked" (SQLITE_BUSY_SNAPSHOT: no busy_timeout cures it): a crawl starting while
// the cockpit wrote failed so (ci138, "crawl life cycle": its seeds' insert).
test('a transaction that reads, then writes after another connection wrote, commits: the other waits for it', async () => {
  await withTempDir('tm-write-transaction-', async (dir) => {
    const path = join(dir, 'state.db');
    const worker = openSqlite(path);
    const server = openSqlite(path);
    try {
      worker.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
      server.pragma('busy_timeout = 0'); // the other process, which here cannot wait for this one's thread
      let serverWrote: boolean | null = null;
      runInTransaction(worker, () => {
        worker.prepare('SELECT COUNT(*) FROM t').get(); // a read first, as the frontier's intake does
        try {
          server.prepare("INSERT INTO t VALUES ('server', 1)").run();
          serverWrote = true;
        } catch (err) {
          assert.equal((err as { code?: string }).code, 'SQLITE_BUSY');
          serverWrote = false;
        }
        worker.prepare("INSERT INTO t VALUES ('worker', 1)").run();
      });
      assert.equal(serverWrote, false, 'the write lock was the worker transaction\'s from its start');
      server.prepare("INSERT INTO t VALUES ('server', 1)").run();
      assert.deepEqual(worker.prepare('SELECT k FROM t ORDER BY k').pluck().all(), ['server', 'worker']);

      // A read transaction takes no write lock: the other connection writes meanwhile.
      const seen = runInReadTransaction(worker, () => {
        const before = worker.prepare('SELECT COUNT(*) FROM t').pluck().get();
        server.prepare("INSERT INTO t VALUES ('later', 1)").run();
        return [before, worker.prepare('SELECT COUNT(*) FROM t').pluck().get()];
      });
      assert.deepEqual(seen, [2, 2], 'its reads from one snapshot');
    } finally {
      server.close();
      worker.close();
    }
  });
});
