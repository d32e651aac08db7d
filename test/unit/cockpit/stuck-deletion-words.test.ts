/**
 * The crawls list's notice of deleted crawls whose files could not all be removed: which crawl,
 * which file and why (the system's words and code), and when the server tries again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deletedCrawlLabel, stuckDeletionReasons, stuckDeletionsSummary, stuckDeletionTries, stuckFilesWords } from '../../../app/lib/client/stuck-deletion-words';

const time = (iso: string) => `<${iso}>`;

test('a deleted crawl is named with its id, or by its id alone for a deletion from before names were kept', () => {
  assert.equal(deletedCrawlLabel({ crawlId: 7, crawlName: 'Harbour' }), 'Harbour #7');
  assert.equal(deletedCrawlLabel({ crawlId: 7, crawlName: null }), 'crawl #7');
});

test('each folder says what stopped it, in the system\'s words and code', () => {
  assert.equal(stuckFilesWords({ folder: 'warcs/7', path: 'warcs/7/a.warc.gz', failed: 'remove', code: 'EPERM', message: 'operation not permitted' }), 'warcs/7/a.warc.gz could not be removed: operation not permitted (EPERM)');
  assert.equal(stuckFilesWords({ folder: 'exports/3', path: 'exports/3', failed: 'read', code: 'EACCES', message: 'permission denied' }), 'exports/3 could not be read: permission denied (EACCES)');
  const list = { folder: null, path: null, failed: 'exports-list' as const, code: 'invalid', message: "its exports' ids (\"x\") are not a list of ids: their folders were not removed" };
  assert.equal(stuckFilesWords(list), list.message);
  // A deletion recorded before the reasons were kept: its logged error.
  assert.deepEqual(stuckDeletionReasons({ stuck: [], error: 'warcs/7/a.warc.gz could not be removed (EBUSY)' }), ['warcs/7/a.warc.gz could not be removed (EBUSY)']);
  assert.deepEqual(stuckDeletionReasons({ stuck: [list, list], error: 'ignored' }), [list.message, list.message]);
});

test('when the files are tried again: once the crawl\'s rows are deleted, then at the retry time, after how many failures', () => {
  assert.equal(stuckDeletionTries({ failedTries: 0, nextTryAt: null }, time), 'Tried when the crawl was deleted; the server tries again once its captures and other records are deleted.');
  assert.equal(stuckDeletionTries({ failedTries: 1, nextTryAt: '2026-12-03T10:01:00.000Z' }, time), 'Failed again once since the crawl was deleted; the server tries again on its own at <2026-12-03T10:01:00.000Z>.');
  assert.equal(stuckDeletionTries({ failedTries: 1200, nextTryAt: '2026-12-04T10:00:00.000Z' }, time), 'Failed again 1,200 times in a row since the crawl was deleted; the server tries again on its own at <2026-12-04T10:00:00.000Z>.');
});

test('the first line names the one crawl, or counts them all', () => {
  assert.equal(stuckDeletionsSummary([{ crawlId: 7, crawlName: 'Harbour' }], 1), 'The files of deleted crawl Harbour #7 could not all be removed from the data folder: the disk space they take is not freed.');
  assert.equal(stuckDeletionsSummary([{ crawlId: 7, crawlName: 'Harbour' }, { crawlId: 9, crawlName: null }], 2), 'The files of 2 deleted crawls could not all be removed from the data folder: the disk space they take is not freed.');
  assert.equal(stuckDeletionsSummary([{ crawlId: 7, crawlName: 'Harbour' }], 1001), 'The files of 1,001 deleted crawls could not all be removed from the data folder: the disk space they take is not freed.');
});
