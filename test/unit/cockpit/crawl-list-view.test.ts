import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlIdIn, crawlListParams, isStatusGroup, pageCount, pickerMatchWords } from '../../../app/lib/client/crawl-list-view';
import { crawlListConditions } from '../../../app/lib/server/crawl-list-sql';

test('the list asks the server for one page: its number, 50 a page, the status group and the name when set', () => {
  assert.equal(crawlListParams({ group: '', name: '', page: 1 }).toString(), 'page=1&pageSize=50');
  assert.equal(crawlListParams({ group: 'paused', name: '  Harbour ', page: 3 }).toString(), 'page=3&pageSize=50&status=paused&q=Harbour');
  assert.equal(crawlListParams({ group: 'active', name: '   ', page: 2 }, 20).toString(), 'page=2&pageSize=20&status=active');
});

test('pages: as many as the crawls fill, and one when there are none', () => {
  assert.equal(pageCount(0), 1);
  assert.equal(pageCount(50), 1);
  assert.equal(pageCount(51), 2);
  assert.equal(pageCount(2_500), 50);
  assert.equal(pageCount(7, 3), 3);
});

test('status groups: the list\'s own, "" for any; nothing else (not even Object\'s own keys)', () => {
  for (const g of ['', 'active', 'paused', 'ended', 'failed']) assert.equal(isStatusGroup(g), true, g);
  for (const g of ['running', 'toString', '__proto__', 'constructor', 'PAUSED']) assert.equal(isStatusGroup(g), false, g);
});

test('an id in the search text: 7 or #7, whole numbers from 1 only', () => {
  assert.equal(crawlIdIn('7'), 7);
  assert.equal(crawlIdIn(' #1234 '), 1234);
  for (const t of ['', '#', '0', '07', '#-1', '1e3', '7a', 'Quay 7', '9999999999999999']) assert.equal(crawlIdIn(t), null, t);
});

test('the SQL conditions: none for the whole list, the group\'s statuses, the name as written or the id', () => {
  assert.deepEqual(crawlListConditions({ group: '', q: '  ' }), []);
  assert.deepEqual(crawlListConditions({ group: 'ended', q: '' }), [{ sql: 'status IN (?, ?)', params: ['finished', 'stopped'] }]);
  assert.deepEqual(crawlListConditions({ group: '', q: ' 100%_ ' }), [{ sql: '(instr(lower(name), lower(?)) > 0)', params: ['100%_'] }]);
  assert.deepEqual(crawlListConditions({ group: 'failed', q: '#12' }), [
    { sql: 'status IN (?)', params: ['failed'] },
    { sql: '((instr(lower(name), lower(?)) > 0) OR id = ?)', params: ['#12', 12] },
  ]);
});

test('a crawl picker says how many crawls match, and past what it lists that a search finds older ones', () => {
  assert.equal(pickerMatchWords('', 0, 500), 'No crawl yet.');
  assert.equal(pickerMatchWords('quay', 0, 500), 'No crawl matches “quay”.');
  assert.equal(pickerMatchWords('élan', 1, 500), '1 crawl matches “élan”.');
  assert.equal(pickerMatchWords('', 12, 500), '12 crawls.');
  assert.equal(pickerMatchWords('harbour', 1200, 500), '1,200 crawls match “harbour”; the newest 500 are listed: search by name or #id for an older one.');
});
