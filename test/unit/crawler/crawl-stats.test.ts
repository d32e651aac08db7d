import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CrawlStatsTracker } from '../../../worker/crawler/crawl-stats';

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
