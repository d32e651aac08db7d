import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextAllowedAt, nextAllowedAsOf, politenessDelayMs, robotsCrawlDelayMs, waitEndAsOf } from '../../../worker/politeness';

const cfg = { minDelayMs: 1000, maxDelayMs: 30_000, delayFactor: 2 };

test('a key never used is allowed at once', () => {
  assert.equal(nextAllowedAt(null, cfg), Number.NEGATIVE_INFINITY);
});

test('fast responses wait the minimum delay after the end of the request', () => {
  // start 10_000, took 100 ms → ends 10_100; 2 × 100 = 200 < 1000 → min delay wins
  assert.equal(nextAllowedAt({ lastStartAt: 10_000, lastDurationMs: 100 }, cfg), 11_100);
});

test('slow responses wait delayFactor × the response time', () => {
  assert.equal(nextAllowedAt({ lastStartAt: 0, lastDurationMs: 3000 }, cfg), 3000 + 6000);
  assert.equal(politenessDelayMs(3000, { ...cfg, delayFactor: 0.5 }), 1500);
});

test('the delay is capped at maxDelay', () => {
  assert.equal(nextAllowedAt({ lastStartAt: 0, lastDurationMs: 60_000 }, cfg), 60_000 + 30_000);
});

test('a robots crawl-delay longer than the others wins, and is capped too', () => {
  assert.equal(nextAllowedAt({ lastStartAt: 0, lastDurationMs: 100 }, cfg, 5000), 5100);
  assert.equal(nextAllowedAt({ lastStartAt: 0, lastDurationMs: 100 }, cfg, 120_000), 30_100);
  // A robots delay shorter than the minimum does not shorten it.
  assert.equal(nextAllowedAt({ lastStartAt: 0, lastDurationMs: 100 }, cfg, 10), 1100);
});

test('zero delays allow back-to-back requests', () => {
  assert.equal(nextAllowedAt({ lastStartAt: 50, lastDurationMs: 10 }, { minDelayMs: 0, maxDelayMs: 0, delayFactor: 5 }), 60);
});

test('robots crawl-delay seconds parse to ms; garbage is ignored', () => {
  assert.equal(robotsCrawlDelayMs(2.5), 2500);
  assert.equal(robotsCrawlDelayMs('10'), 10_000);
  // An overflowing number asks for the longest delay, not none (it was read as no Crawl-delay).
  assert.equal(robotsCrawlDelayMs('1e309'), 86_400_000);
  assert.equal(robotsCrawlDelayMs(Number.POSITIVE_INFINITY), 86_400_000);
  assert.equal(robotsCrawlDelayMs(3600), 3_600_000);
  assert.equal(robotsCrawlDelayMs('soon'), null);
  assert.equal(robotsCrawlDelayMs(-1), null);
  assert.equal(robotsCrawlDelayMs(undefined), null);
});

// A wall clock set back (NTP stepping a fast clock, `date -s`) left each wait's end as far ahead as the step.
test('a wait ending further ahead than its own length (and a minute) was set before the clock was set back: it ends now', () => {
  const HOUR = 3_600_000;
  assert.equal(waitEndAsOf(10 * HOUR + 30_000, 30_000, 10 * HOUR), 10 * HOUR + 30_000, 'a wait as set: kept');
  assert.equal(waitEndAsOf(10 * HOUR + 30_000, 30_000, 10 * HOUR - 60_000), 10 * HOUR + 30_000, 'set back a minute: kept, at most a minute longer');
  assert.equal(waitEndAsOf(10 * HOUR + 30_000, 30_000, 9 * HOUR), 9 * HOUR, 'set back an hour: over now');
  assert.equal(waitEndAsOf(10 * HOUR + 30_000, 30_000, 11 * HOUR), 10 * HOUR + 30_000, 'set forward: over as well, at most the wait early');
  assert.equal(waitEndAsOf(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, 9 * HOUR), Number.POSITIVE_INFINITY, 'a wait without end stays one');
});

test('the delay after a request timed before the clock was set back counts from now', () => {
  const cfg = { minDelayMs: 1000, maxDelayMs: 10_000, delayFactor: 0 };
  const robotsTxt = { lastStartAt: 10 * 3_600_000, lastDurationMs: 100 };
  assert.equal(nextAllowedAsOf(robotsTxt, cfg, null, 10 * 3_600_000 + 100), 10 * 3_600_000 + 1100);
  assert.equal(nextAllowedAsOf(robotsTxt, cfg, 5000, 9 * 3_600_000), 9 * 3_600_000 + 5000, 'ended now, then its delay');
});
