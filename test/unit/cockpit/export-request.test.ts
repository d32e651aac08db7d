/**
 * Request export waits for the export it just requested while the form asks for the same one: a
 * double-click's second click, after the first's answer, requested a second, identical export.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportUnderWayFor, sameExportAsk, type ExportAsk } from '../../../app/lib/client/export-request';
import type { ExportRecord } from '../../../app/lib/client/queries';

const ask: ExportAsk = { crawlId: 4, format: 'warc', pageText: false };
const listed = (status: string): ExportRecord[] => [{ id: 9, status, progress: 0, files: null }];

test('the same export is not requested again while it is pending or running; once it has ended, it may be', () => {
  const last = { ask, id: 9 };
  assert.equal(exportUnderWayFor(last, ask, undefined), 9, 'not listed yet: pending');
  assert.equal(exportUnderWayFor(last, ask, []), 9);
  assert.equal(exportUnderWayFor(last, ask, listed('pending')), 9);
  assert.equal(exportUnderWayFor(last, ask, listed('running')), 9);
  for (const ended of ['done', 'failed', 'cancelled']) assert.equal(exportUnderWayFor(last, ask, listed(ended)), null, ended);
  assert.equal(exportUnderWayFor(undefined, ask, listed('pending')), null, 'nothing requested yet');
});

test('another crawl, selection or format is another export; page text counts only in a WACZ', () => {
  assert.equal(sameExportAsk(ask, { ...ask, crawlId: 5 }), false);
  assert.equal(sameExportAsk(ask, { ...ask, selection: { hosts: ['a.example'] } }), false);
  assert.equal(sameExportAsk(ask, { ...ask, format: 'wacz' }), false);
  assert.equal(sameExportAsk(ask, { ...ask, pageText: true }), true, 'page text goes with a WACZ only');
  assert.equal(sameExportAsk({ ...ask, format: 'wacz' }, { ...ask, format: 'wacz', pageText: true }), false);
  assert.equal(exportUnderWayFor({ ask, id: 9 }, { ...ask, format: 'wacz' }, listed('running')), null);
});

test('other crawls taken besides make another export, whatever order they were ticked in', () => {
  assert.equal(sameExportAsk(ask, { ...ask, otherCrawls: [2] }), false);
  assert.equal(sameExportAsk(ask, { ...ask, otherCrawls: [] }), true);
  assert.equal(sameExportAsk({ ...ask, otherCrawls: [3, 2] }, { ...ask, otherCrawls: [2, 3] }), true);
});
