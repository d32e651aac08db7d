import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CrawlStatsTracker, withFrontierChange } from '../../../worker/crawler/crawl-stats';

test('pages/s is counted over the last five seconds, and a long crawl keeps only that window', () => {
  let now = 0;
  const stats = new CrawlStatsTracker(() => now);
  for (let i = 0; i < 30_000; i++) {
    now += 2; // 500 pages/s for 60 s, nobody asking for the rate meanwhile
    stats.recordFetch(200, 1000);
  }
  // What the tracker holds is its only memory cost per page: bounded, not one number per page.
  assert.ok((stats as unknown as { recent: number[] }).recent.length <= 10_001);
  assert.ok(Math.abs(stats.pagesPerSecond() - 500) < 1, String(stats.pagesPerSecond()));
  assert.equal(stats.fetched, 30_000);
  now += 6000;
  assert.equal(stats.pagesPerSecond(), 0, 'nothing fetched in the last five seconds');
});

test("a frontier change is added to the crawl's stored counters: queued and excluded by reason", () => {
  const stored = { fetched: 7, queued: 3, excluded: 4, excludedByReason: { robots: 1, 'max-depth': 3 }, failed: 0 };
  const before = { queued: 2, retrying: 1, excluded: 3, excludedByReason: { 'max-depth': 3 } };
  // Two posted URLs recorded as excluded, and a queued one blacklisted.
  const after = { queued: 1, retrying: 1, excluded: 6, excludedByReason: { 'max-depth': 3, 'crawl-ended': 2, blacklisted: 1 } };
  assert.deepEqual(withFrontierChange(stored, before, after), {
    fetched: 7, queued: 2, excluded: 7, excludedByReason: { robots: 1, 'max-depth': 3, 'crawl-ended': 2, blacklisted: 1 }, failed: 0,
  });
  assert.deepEqual(withFrontierChange(stored, before, before), { ...stored }, 'no change, the same counters');
  // A crawl stopped before it ever ran stores no counters yet.
  assert.deepEqual(withFrontierChange({}, { queued: 0, retrying: 0, excluded: 0, excludedByReason: {} }, { queued: 0, retrying: 0, excluded: 1, excludedByReason: { 'crawl-ended': 1 } }),
    { queued: 0, excluded: 1, excludedByReason: { 'crawl-ended': 1 } });
});
