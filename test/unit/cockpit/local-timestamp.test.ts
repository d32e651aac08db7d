/**
 * The crawl log's "At" and the captures' "Fetched" columns show the date with the time. Before,
 * they showed toLocaleTimeString() alone, and a crawl that ran for days (feeds, recrawl rounds)
 * had entries of different days that read alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localTimestamp } from '../../../app/lib/client/local-timestamp';

test('a moment reads as its local date and time, YYYY-MM-DD HH:MM:SS, whatever the day', () => {
  assert.equal(localTimestamp(new Date(2025, 10, 30, 21, 8, 3)), '2025-11-30 21:08:03');
  assert.equal(localTimestamp(new Date(2026, 0, 2, 4, 5, 6).toISOString()), '2026-01-02 04:05:06');
  // The same time of day on two days reads differently.
  assert.notEqual(localTimestamp(new Date(2025, 10, 30, 9, 0, 0)), localTimestamp(new Date(2025, 11, 1, 9, 0, 0)));
  assert.equal(localTimestamp('not a date'), 'not a date');
});
