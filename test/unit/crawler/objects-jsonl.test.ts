import { test } from 'node:test';
import assert from 'node:assert/strict';
import { objectLine, objectsJsonlRepair, type StoredObject } from '../../../worker/crawler/objects-jsonl';

const row = (title: string, url = 'http://a.test/p'): StoredObject => ({ type: 'post', url, fields: JSON.stringify({ title, body: `b ${title}` }) });
const line = (r: StoredObject) => objectLine({ type: r.type, url: r.url, fields: JSON.parse(r.fields) });
const file = (...lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(''));

test('a file holding every stored object needs nothing', () => {
  const rows = [row('a'), row('b')];
  const f = file(...rows.map(line));
  assert.deepEqual(objectsJsonlRepair(f, rows), { keepBytes: f.length, append: [] });
});

test('objects committed but never written are appended, in stored order', () => {
  const rows = [row('a'), row('b'), row('c')];
  const f = file(line(rows[0]!));
  assert.deepEqual(objectsJsonlRepair(f, rows), { keepBytes: f.length, append: [line(rows[1]!), line(rows[2]!)] });
  assert.deepEqual(objectsJsonlRepair(Buffer.alloc(0), rows).append, rows.map(line));
});

test('a cut last line is dropped and its object written whole', () => {
  const rows = [row('a'), row('b')];
  const whole = file(line(rows[0]!));
  const torn = Buffer.concat([whole, Buffer.from(line(rows[1]!).slice(0, 10))]);
  assert.deepEqual(objectsJsonlRepair(torn, rows), { keepBytes: whole.length, append: [line(rows[1]!)] });
});

test('an object stored twice (a recrawl round found it again) is written twice, never a third time', () => {
  const rows = [row('a'), row('a')];
  assert.deepEqual(objectsJsonlRepair(file(line(rows[0]!)), rows).append, [line(rows[0]!)]);
  assert.deepEqual(objectsJsonlRepair(file(line(rows[0]!), line(rows[0]!)), rows).append, []);
});

test('lines the database does not hold are kept', () => {
  const f = file('{"type":"post","url":"http://other.test/","fields":{}}');
  assert.deepEqual(objectsJsonlRepair(f, [row('a')]), { keepBytes: f.length, append: [line(row('a'))] });
});

test('the line has the fields as stored, in their order', () => {
  assert.equal(line({ type: 'post', url: 'http://a.test/', fields: '{"z":"1","a":"2"}' }), '{"type":"post","url":"http://a.test/","fields":{"z":"1","a":"2"}}');
});
