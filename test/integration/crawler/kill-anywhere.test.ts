import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exploreKills } from '../../../bench/kill-anywhere/explore';

test('the crash explorer kills the CLI at planned moments and in its closing phase, and finds every page once, every WARC file and index line whole', { timeout: 120_000 }, async () => {
  const summary = await exploreKills({ kills: 3, closingKills: 3, pages: 40, seed: 5, siteDelayMs: 5, concurrency: 4 });
  assert.deepEqual(summary.violations, [], `work folder kept: ${summary.workDir}`);
  assert.equal(summary.kills.length, 6);
  assert.ok(summary.kills.some((k) => k.exit.signal === 'SIGKILL'), JSON.stringify(summary.kills));
  assert.equal(summary.finalRun.outcome, 'finished');
  // 40 pages, 8 images and 24 copies of them (revisits), a stylesheet, a script and the favicon.
  assert.equal(summary.expectedCaptures, 75);
  assert.equal(summary.records.responsesAndRevisits - summary.records.robotsTxt, 75);
  assert.equal(summary.records.indexLines, summary.records.responsesAndRevisits);
});
