import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { fileChunks, LineTally, objectLine, objectsJsonlRepair, repairObjectsJsonl, type StoredObject } from '../../../worker/crawler/objects-jsonl';

const row = (title: string, url = 'http://a.test/p'): StoredObject => ({ type: 'post', url, fields: JSON.stringify({ title, body: `b ${title}` }) });
const line = (r: StoredObject) => objectLine({ type: r.type, url: r.url, fields: JSON.parse(r.fields) });
const file = (...lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(''));

/** The file in pieces of `size` bytes, as fileChunks reads it. */
function* piecesOf(f: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < f.length; at += size) yield f.subarray(at, at + size);
}

/** objectsJsonlRepair of the file read whole, its appends listed. */
function repair(f: Buffer, rows: Iterable<StoredObject>, chunkBytes = f.length || 1): { keepBytes: number; cutBytes: number; append: string[] } {
  const tally = new LineTally();
  try {
    const { keepBytes, cutBytes, append } = objectsJsonlRepair(piecesOf(f, chunkBytes), rows, tally);
    return { keepBytes, cutBytes, append: [...append] };
  } finally {
    tally.close();
  }
}

test('a file holding every stored object needs nothing', () => {
  const rows = [row('a'), row('b')];
  const f = file(...rows.map(line));
  assert.deepEqual(repair(f, rows), { keepBytes: f.length, cutBytes: 0, append: [] });
});

test('objects committed but never written are appended, in stored order', () => {
  const rows = [row('a'), row('b'), row('c')];
  const f = file(line(rows[0]!));
  assert.deepEqual(repair(f, rows), { keepBytes: f.length, cutBytes: 0, append: [line(rows[1]!), line(rows[2]!)] });
  assert.deepEqual(repair(Buffer.alloc(0), rows).append, rows.map(line));
});

test('a cut last line is dropped and its object written whole', () => {
  const rows = [row('a'), row('b')];
  const whole = file(line(rows[0]!));
  const torn = Buffer.concat([whole, Buffer.from(line(rows[1]!).slice(0, 10))]);
  assert.deepEqual(repair(torn, rows), { keepBytes: whole.length, cutBytes: 10, append: [line(rows[1]!)] });
});

test('an object stored twice (a recrawl round found it again) is written twice, never a third time', () => {
  const rows = [row('a'), row('a')];
  assert.deepEqual(repair(file(line(rows[0]!)), rows).append, [line(rows[0]!)]);
  assert.deepEqual(repair(file(line(rows[0]!), line(rows[0]!)), rows).append, []);
});

test('lines the database does not hold are kept', () => {
  const f = file('{"type":"post","url":"http://other.test/","fields":{}}');
  assert.deepEqual(repair(f, [row('a')]), { keepBytes: f.length, cutBytes: 0, append: [line(row('a'))] });
});

test('the line has the fields as stored, in their order', () => {
  assert.equal(line({ type: 'post', url: 'http://a.test/', fields: '{"z":"1","a":"2"}' }), '{"type":"post","url":"http://a.test/","fields":{"z":"1","a":"2"}}');
});

test('the file read a few bytes at a time, lines across chunks and longer than one: the same repair as read whole', () => {
  const rows = [row('a'), row('b'.repeat(50)), row('c'), row('d')];
  const torn = Buffer.concat([file(line(rows[0]!), '', line(rows[1]!), line(rows[3]!)), Buffer.from(line(rows[2]!).slice(0, 20))]);
  const whole = repair(torn, rows);
  assert.deepEqual(whole, { keepBytes: torn.length - 20, cutBytes: 20, append: [line(rows[2]!)] });
  for (const size of [1, 7, 16, 64]) assert.deepEqual(repair(torn, rows, size), whole, `chunks of ${size} bytes`);
});

test('the stored objects are read as the appends are taken, not all before', () => {
  const rows = Array.from({ length: 1_000 }, (_, k) => row(`t${k}`));
  let read = 0;
  function* stored(): Generator<StoredObject> {
    for (const r of rows) {
      read += 1;
      yield r;
    }
  }
  const tally = new LineTally();
  try {
    const { append } = objectsJsonlRepair(piecesOf(file(line(rows[0]!), line(rows[1]!)), 16), stored(), tally);
    assert.equal(read, 2, 'before the appends are taken, only the two the file holds are read (matched in order)');
    const appends = append[Symbol.iterator]();
    assert.equal(appends.next().value, line(rows[2]!));
    assert.equal(read, 3, 'the first missing one is the third read');
    let rest = 0;
    while (!appends.next().done) rest += 1;
    assert.equal(rest, 997);
    assert.equal(read, 1_000);
  } finally {
    tally.close();
  }
});

test('repairObjectsJsonl: a file many times the chunk it reads, with a torn last line and objects missing, is repaired as a whole read would', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-objects-jsonl-'));
  const db = new Database(':memory:');
  try {
    db.exec('CREATE TABLE WebObject (id INTEGER PRIMARY KEY, crawlId INTEGER NOT NULL, type TEXT NOT NULL, url TEXT NOT NULL, fields TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO WebObject (crawlId, type, url, fields) VALUES (?, ?, ?, ?)');
    const rows = Array.from({ length: 3_000 }, (_, k) => row(`title ${k} ${'x'.repeat(k % 300)}`, `http://a.test/${k}`));
    for (const r of rows) insert.run(7, r.type, r.url, r.fields);
    insert.run(8, 'post', 'http://other-crawl.test/', '{}');
    // Every tenth object never written, the last one cut in its append.
    const written = rows.filter((_, k) => k % 10 !== 3 && k < rows.length - 1).map(line);
    const path = join(dir, 'objects.jsonl');
    const torn = line(rows.at(-1)!).slice(0, 25);
    writeFileSync(path, written.map((l) => `${l}\n`).join('') + torn);
    const chunkBytes = 4_096;
    const before = readFileSync(path);
    assert.ok(before.length > 100 * chunkBytes, `${before.length} bytes`);
    assert.ok([...fileChunks(path, chunkBytes)].every((c) => c.length <= chunkBytes), 'read a chunk at a time');

    const missing = rows.filter((_, k) => k % 10 === 3 || k === rows.length - 1).map(line);
    assert.deepEqual(repairObjectsJsonl(path, db, 7, chunkBytes), { appended: missing.length, cutBytes: torn.length });
    assert.equal(readFileSync(path, 'utf8'), [...written, ...missing].map((l) => `${l}\n`).join(''));
    assert.deepEqual(repairObjectsJsonl(path, db, 7, chunkBytes), { appended: 0, cutBytes: 0 }, 'a second repair finds nothing to do');
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
