import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containsText, listPage, urlContainsText } from '../../../app/lib/server/list-query';
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

// Found by an exploratory session: docs/api.md promised accented text for the captures' and log's URL
// filter, but stored URLs write it percent-encoded, so "é" found nothing.
test('the URL filter finds a text outside ASCII in the URL as read (percent-escapes decoded, hosts in their script), in either case', () => {
  const db = openSqlite(':memory:');
  db.exec('CREATE TABLE Capture (id INTEGER PRIMARY KEY, url TEXT NOT NULL)');
  const urls = ['http://a.example/%C3%A9%C3%A7%C3%A0', 'http://a.example/%C3%89T%C3%89', 'http://xn--bcher-kva.example/Latin', 'http://a.example/bad%FF%C3%A9', 'http://a.example/plain'];
  for (const url of urls) db.prepare('INSERT INTO Capture (url) VALUES (?)').run(url);
  const search = (q: string) => listPage(db, { table: 'Capture', conditions: [urlContainsText(['url'], q)], orderBy: 'id', offset: 0, limit: 50 }).ids.map((id) => urls[id - 1]);
  try {
    assert.deepEqual(search('éçà'), [urls[0]]);
    assert.deepEqual(search('été'), [urls[1]], 'either case');
    assert.deepEqual(search('bücher.example/latin'), [urls[2]]);
    assert.deepEqual(search('é'), [urls[0], urls[1], urls[3]], 'an escape that is no UTF-8 stays as written, the sequence after it is read');
    assert.deepEqual(search('LATIN'), [urls[2]], 'ASCII in either case, as before');
    assert.deepEqual(search('%c3%a9'), [urls[0], urls[3]], 'the stored form too');
  } finally {
    db.close();
  }
});
