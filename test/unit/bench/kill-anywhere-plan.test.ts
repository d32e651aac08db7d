import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planKill, landingOf, type PlannedKill } from '../../../bench/kill-anywhere/plan';
import { mulberry32 } from '../../../bench/support/mulberry32';

const timings = { startupMs: 500, crawlMs: 9500 };
const plan = (seed: number, share: number, killsLeft = 1, n = 2000): PlannedKill[] => {
  const rand = mulberry32(seed);
  return Array.from({ length: n }, () => planKill(rand, timings, share, killsLeft));
};
const delays = (kills: PlannedKill[], from: PlannedKill['from']) => kills.filter((k) => k.from === from).map((k) => k.delayMs);

test('kill plans are the same for a seed, and another seed gives others', () => {
  assert.deepEqual(plan(3, 1, 1, 50), plan(3, 1, 1, 50));
  assert.notDeepEqual(plan(3, 1, 1, 50), plan(4, 1, 1, 50));
});

test('half the kills spread over start-up at every scale of ms, half over the crawl after its first request', () => {
  const kills = plan(1, 1);
  const startUp = delays(kills, 'spawn');
  const crawl = delays(kills, 'first-request');
  assert.ok(startUp.length > 900 && crawl.length > 900, `${startUp.length} at start-up, ${crawl.length} in the crawl`);
  assert.ok(startUp.every((d) => d >= 1 && d <= 500), `start-up within 1–500 ms: ${Math.min(...startUp)}–${Math.max(...startUp)}`);
  assert.ok(startUp.filter((d) => d < 10).length > 200, 'kills in the first 10 ms');
  assert.ok(startUp.filter((d) => d > 250).length > 50, 'kills late in start-up');
  assert.ok(crawl.every((d) => d >= 0 && d <= 9500), `crawl within 0–9,500 ms: ${Math.max(...crawl)}`);
  assert.ok(crawl.filter((d) => d < 1000).length > 50 && crawl.filter((d) => d > 8500).length > 50, 'kills early and late in the crawl');
});

test('each crawl kill takes at most its share of what is left', () => {
  // A tenth of the site left, the last kill: a tenth of the crawl.
  const tenth = delays(plan(1, 0.1), 'first-request');
  assert.ok(tenth.every((d) => d <= 950) && tenth.some((d) => d > 900), `within a tenth of the crawl: ${Math.max(...tenth)}`);
  // The whole site left, 20 kills to come: each within a tenth of it.
  const many = delays(plan(1, 1, 20), 'first-request');
  assert.ok(many.every((d) => d <= 950) && many.some((d) => d > 900), `within a tenth of the crawl: ${Math.max(...many)}`);
  // Nothing left (or an estimate gone wrong): at the first request.
  assert.ok(delays(plan(1, -0.5), 'first-request').every((d) => d === 0));
});

test('a kill lands in start-up before the first request, mid-crawl after it, or on a complete crawl', () => {
  assert.equal(landingOf({ killed: true, requested: false, capturedAfter: 10, expected: 50 }), 'start-up');
  assert.equal(landingOf({ killed: true, requested: true, capturedAfter: 10, expected: 50 }), 'mid-crawl');
  assert.equal(landingOf({ killed: true, requested: true, capturedAfter: 50, expected: 50 }), 'complete');
  // A finished crawl's start-up makes no request.
  assert.equal(landingOf({ killed: true, requested: false, capturedAfter: 50, expected: 50 }), 'complete');
  assert.equal(landingOf({ killed: false, requested: true, capturedAfter: 50, expected: 50 }), 'not-killed');
});
