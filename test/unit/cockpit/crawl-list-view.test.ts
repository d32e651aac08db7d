import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlListPage } from '../../../app/lib/client/crawl-list-view';

const statuses = ['running', 'paused', 'finished', 'failed', 'stopped', 'created', 'pausing'];
const crawls = Array.from({ length: 120 }, (_, k) => ({ id: 120 - k, name: k % 10 === 0 ? `Harbour ${k}` : `Quay ${k}`, status: statuses[k % statuses.length]! }));

test('the crawls list shows 50 crawls a page, newest first as read, the last page holding the rest', () => {
  const first = crawlListPage(crawls, { group: '', name: '', page: 1 });
  assert.equal(first.total, 120);
  assert.deepEqual(first.items.map((c) => c.id), Array.from({ length: 50 }, (_, k) => 120 - k));
  const last = crawlListPage(crawls, { group: '', name: '', page: 3 });
  assert.deepEqual(last.items.map((c) => c.id), Array.from({ length: 20 }, (_, k) => 20 - k));
  // A page past the end (the list shrank under a filter or a deletion) shows the last one.
  assert.equal(crawlListPage(crawls, { group: '', name: '', page: 9 }).page, 3);
  assert.deepEqual(crawlListPage([], { group: '', name: '', page: 2 }), { items: [], total: 0, page: 1 });
});

test('the filters: a status group, and a name (any case) or an id', () => {
  const active = crawlListPage(crawls, { group: 'active', name: '', page: 1 });
  assert.ok(active.items.every((c) => ['created', 'running', 'pausing', 'stopping'].includes(c.status)));
  assert.equal(active.total, crawls.filter((c) => ['created', 'running', 'pausing'].includes(c.status)).length);
  assert.deepEqual(crawlListPage(crawls, { group: 'paused', name: 'harbour', page: 1 }).items.map((c) => c.name), crawls.filter((c) => c.status === 'paused' && c.name.startsWith('Harbour')).map((c) => c.name));
  assert.deepEqual(crawlListPage(crawls, { group: '', name: ' #7 ', page: 1 }).items.map((c) => c.id), [7]);
  assert.equal(crawlListPage(crawls, { group: 'ended', name: '', page: 1 }).total, crawls.filter((c) => c.status === 'finished' || c.status === 'stopped').length);
});
