import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containsText, listPage } from '../../../app/lib/server/list-query';
import { openSqlite } from '../../../worker/store/sqlite';

/** The lists' text search on a real SQLite connection, opened as the server opens it. */
function crawlNames(names: string[]) {
  const db = openSqlite(':memory:');
  db.exec('CREATE TABLE Crawl (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO Crawl (name) VALUES (?)');
  for (const name of names) insert.run(name);
  const search = (q: string) => {
    const page = listPage(db, { table: 'Crawl', conditions: [containsText(['name'], q)], orderBy: 'id', offset: 0, limit: 50 });
    return page.ids.map((id) => names[id - 1]);
  };
  return { db, search };
}

test('the lists\' text search finds letters in either case, accented and other scripts too, as the browser filter did', () => {
  const { db, search } = crawlNames(['Élan vital', 'élan', 'Ørsted archive', 'ΑΘΗΝΑ news', 'Harbour', 'plain ascii']);
  try {
    assert.deepEqual(search('élan'), ['Élan vital', 'élan']);
    assert.deepEqual(search('ÉLAN'), ['Élan vital', 'élan']);
    assert.deepEqual(search('ørsted'), ['Ørsted archive']);
    assert.deepEqual(search('αθηνα'), ['ΑΘΗΝΑ news']);
    assert.deepEqual(search('HARB'), ['Harbour']);
    // As written: % and _ are themselves, not LIKE's wildcards.
    assert.deepEqual(search('%'), []);
    assert.deepEqual(search('p_ain'), []);
  } finally {
    db.close();
  }
});
