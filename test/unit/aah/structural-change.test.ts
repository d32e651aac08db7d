import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareWithPrevious } from '../../../worker/aah/index';

const post = (title: string, body: string, author = 'ann') => ({ type: 'post', fields: { title, author, body } });

test('same objects: unchanged', () => {
  const r = compareWithPrevious([post('a', 'x'), post('b', 'y')], [post('b', 'y'), post('a', 'x')]);
  assert.equal(r.verdict, 'unchanged');
  assert.deepEqual(r.types, [{ type: 'post', previous: 2, current: 2, missingFields: [], added: 0, removed: 0, changed: 0 }]);
});

test('a new post and an edited one: content changed', () => {
  const r = compareWithPrevious([post('a', 'x'), post('b', 'y')], [post('a', 'x2'), post('b', 'y'), post('c', 'z')]);
  assert.equal(r.verdict, 'content-changed');
  assert.deepEqual(r.types[0], { type: 'post', previous: 2, current: 3, missingFields: [], added: 1, removed: 0, changed: 1 });
});

test('the same rules find no posts any more: structure changed', () => {
  const r = compareWithPrevious([post('a', 'x')], [{ type: 'comment', fields: { body: 'hi' } }]);
  assert.equal(r.verdict, 'structure-changed');
  assert.deepEqual(r.types.map((t) => [t.type, t.previous, t.current, t.removed]), [['comment', 0, 1, 0], ['post', 1, 0, 1]]);
});

test('a field every object had is gone: structure changed', () => {
  const r = compareWithPrevious([post('a', 'x'), post('b', 'y')], [{ type: 'post', fields: { title: 'a', body: 'x' } }, { type: 'post', fields: { title: 'b', body: 'y' } }]);
  assert.equal(r.verdict, 'structure-changed');
  assert.deepEqual(r.types[0].missingFields, ['author']);
});
