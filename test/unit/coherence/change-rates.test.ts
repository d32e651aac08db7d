import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mersenne, unsafeUniformIntDistribution } from 'pure-rand';
import { poissonRateMle, poissonRateRegular, probabilityUnchanged, sitemapChangeRate, type VisitInterval } from '../../../worker/coherence';

const NOW = Date.UTC(2026, 10, 23);

test('sitemap rates: changefreq first, else one change per age of lastmod, else null', () => {
  assert.equal(sitemapChangeRate({ changefreq: 'daily' }, NOW), 1);
  assert.equal(sitemapChangeRate({ changefreq: ' Hourly ' }, NOW), 24);
  assert.equal(sitemapChangeRate({ changefreq: 'never' }, NOW), 0);
  assert.equal(sitemapChangeRate({ changefreq: 'weekly', lastmod: '2026-11-22' }, NOW), 1 / 7);
  assert.equal(sitemapChangeRate({ lastmod: '2026-11-13' }, NOW), 0.1);
  assert.equal(sitemapChangeRate({ lastmod: 'not a date' }, NOW), null);
  assert.equal(sitemapChangeRate({ lastmod: '2027-01-01' }, NOW), null, 'a future lastmod says nothing');
  assert.equal(sitemapChangeRate({}, NOW), null);
});

test('Poisson MLE at regular intervals agrees with the closed form (all but the +0.5 correction)', () => {
  // 10 visits a day apart, 4 changes: the MLE root is −ln(6/10).
  const intervals: VisitInterval[] = Array.from({ length: 10 }, (_, i) => ({ days: 1, changed: i < 4 }));
  assert.ok(Math.abs(poissonRateMle(intervals) - -Math.log(6 / 10)) < 1e-9);
  assert.ok(Math.abs(poissonRateRegular(10, 4, 1) - -Math.log(6.5 / 10.5)) < 1e-12);
});

test('Poisson MLE: no change → 0; every visit changed → finite; monotone in changes', () => {
  assert.equal(poissonRateMle([{ days: 1, changed: false }, { days: 2, changed: false }]), 0);
  const all = poissonRateMle([{ days: 1, changed: true }, { days: 1, changed: true }]);
  assert.ok(Number.isFinite(all) && all > 1);
  const some = poissonRateMle([{ days: 1, changed: true }, { days: 1, changed: false }]);
  assert.ok(some < all);
  assert.equal(poissonRateMle([]), 0);
});

test('Poisson MLE recovers the true rate from simulated irregular visits', () => {
  const rng = mersenne(42);
  const uniform = () => unsafeUniformIntDistribution(0, 1_000_000, rng) / 1_000_000;
  for (const truth of [0.2, 1, 5]) {
    const intervals: VisitInterval[] = [];
    for (let i = 0; i < 4000; i++) {
      const days = 0.1 + uniform() * 0.9;
      intervals.push({ days, changed: uniform() > Math.exp(-truth * days) });
    }
    const est = poissonRateMle(intervals);
    assert.ok(Math.abs(est - truth) / truth < 0.1, `truth ${truth}, estimated ${est}`);
  }
});

test('probability of no change', () => {
  assert.equal(probabilityUnchanged(0, 10), 1);
  assert.ok(Math.abs(probabilityUnchanged(2, 0.5) - Math.exp(-1)) < 1e-15);
});
