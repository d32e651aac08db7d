/**
 * runInTransaction: one wrapper per connection, with db.transaction's semantics (commit on return,
 * roll back on a throw, a savepoint when nested). The real SQLite driver, in memory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqlite, runInTransaction } from '../../../worker/store/sqlite';

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
