import test from 'node:test';
import assert from 'node:assert/strict';
import { movePinned, type PinnedPage } from '../../../app/lib/client/pinned-pages';

test('leaving the live first page pins the pages to its newest entry; they stay pinned until the first page again', () => {
  const live: PinnedPage = { filters: '', page: 1, upTo: null };
  const second = movePinned(live, '', 2, 500);
  assert.deepEqual(second, { filters: '', page: 2, upTo: 500 });
  // Further on, the pin stays where it was, whatever is newest now.
  assert.deepEqual(movePinned(second, '', 3, 480), { filters: '', page: 3, upTo: 500 });
  assert.deepEqual(movePinned(second, '', 1, 480), { filters: '', page: 1, upTo: null });
});

test('other filters start from the live list again', () => {
  const pinned: PinnedPage = { filters: 'ok\n', page: 4, upTo: 500 };
  assert.deepEqual(movePinned(pinned, 'robots\n', 2, 77), { filters: 'robots\n', page: 2, upTo: 77 });
  // An empty list on screen has nothing to pin to.
  assert.deepEqual(movePinned({ filters: '', page: 1, upTo: null }, '', 2, undefined), { filters: '', page: 2, upTo: null });
});
