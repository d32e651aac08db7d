import { test } from 'node:test';
import assert from 'node:assert/strict';
import { htmlParseProbe } from '../../../bench/support/cpu-probe';

/** A clock that moves `step` ms each time it is read. */
const steppingClock = (step: number) => {
  let t = 0;
  return () => (t += step);
};

test('the probe parses whole rounds of the pages until its budget is spent, and gives the rate over the time it took', () => {
  const pages = ['<html><body><p>a</p></body></html>', '<p>b</p><a href="/x">x</a>'];
  // Read once at the start, then after each round: 10 ms a read, 50 ms of budget → 5 rounds.
  const r = htmlParseProbe(pages, 50, steppingClock(10));
  assert.equal(r.pages, 10);
  assert.equal(r.ms, 50);
  assert.equal(r.pagesPerSecond, 200);
});

test('one whole round at least, however small the budget; no pages is an error', () => {
  assert.equal(htmlParseProbe(['<p>only</p>'], 0, steppingClock(1)).pages, 1);
  assert.throws(() => htmlParseProbe([], 10), /no pages/);
});
