import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../../app/lib/client/api';
import { editConflictOf, ifMatchHeaders, newestStored, readAgain } from '../../../app/lib/client/edit-conflict';

test('a save sends the version it was built on as If-Match; a new document none', () => {
  assert.deepEqual(ifMatchHeaders('2026-11-25T08:10:06.845Z'), { 'if-match': '"2026-11-25T08:10:06.845Z"' });
  assert.deepEqual(ifMatchHeaders(null), {});
});

test('editConflictOf reads the stored version of a 412, and nothing from other errors', () => {
  const body = { error: 'This crawl definition was changed at …', updatedAt: '2026-11-25T08:10:06.845Z', etag: '"2026-11-25T08:10:06.845Z"' };
  assert.deepEqual(editConflictOf(new ApiError(412, body.error, [], undefined, body)), { updatedAt: '2026-11-25T08:10:06.845Z' });
  assert.equal(editConflictOf(new ApiError(409, 'busy', [], undefined, body)), null);
  assert.equal(editConflictOf(new ApiError(412, 'no knowledge base', [], undefined, { error: 'no knowledge base' })), null, 'a 412 naming no version');
  assert.equal(editConflictOf(new ApiError(412, 'x', [], undefined, { updatedAt: 'yesterday' })), null);
  assert.equal(editConflictOf(new Error('network')), null);
  assert.equal(editConflictOf(null), null);
});

test('readAgain gives the refetched data, and throws the error of a failed refetch (which keeps the old data)', async () => {
  assert.equal(await readAgain(async () => ({ data: 'theirs', error: null })), 'theirs');
  const failed = new ApiError(500, 'internal error');
  await assert.rejects(readAgain(async () => ({ data: 'mine, old', error: failed })), failed);
});

test('after Reload theirs, an editor starts from the reload\'s answer until its query has that version too', () => {
  const older = { value: 'mine', updatedAt: '2026-11-30T10:00:00.000Z' };
  const reloaded = { value: 'theirs', updatedAt: '2026-11-30T10:05:00.000Z' };
  assert.equal(newestStored(older, reloaded), 'theirs', 'the query not told yet');
  assert.equal(newestStored({ value: 'theirs (query)', updatedAt: reloaded.updatedAt }, reloaded), 'theirs (query)');
  assert.equal(newestStored({ value: 'later still', updatedAt: '2026-11-30T10:09:00.000Z' }, reloaded), 'later still', 'saved since: the query\'s');
  assert.equal(newestStored(older, null), 'mine', 'never reloaded');
  assert.equal(newestStored({ value: null, updatedAt: null }, reloaded), 'theirs');
});
