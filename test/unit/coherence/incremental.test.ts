import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adaptParentRule, afterFetch, initialRevisitState, isDue, revisitPeriodRounds, shouldRecrawlParent } from '../../../worker/coherence';

test('fr / fr_max: a stable page is fetched less and less often, a change brings it back', () => {
  const policy = { frMax: 8 };
  let s = initialRevisitState(0, policy);
  assert.equal(revisitPeriodRounds(s, policy), 1);
  assert.equal(isDue(s, 1, policy), true);
  s = afterFetch(s, 1, false, policy);
  assert.equal(revisitPeriodRounds(s, policy), 2);
  assert.equal(isDue(s, 2, policy), false);
  assert.equal(isDue(s, 3, policy), true);
  s = afterFetch(s, 3, false, policy);
  s = afterFetch(s, 7, false, policy);
  assert.equal(s.fr, 1);
  assert.equal(revisitPeriodRounds(s, policy), 8);
  s = afterFetch(s, 15, false, policy);
  assert.equal(s.fr, 1, 'bounded below');
  s = afterFetch(s, 23, true, policy);
  assert.equal(revisitPeriodRounds(s, policy), 4);
  for (let r = 0; r < 5; r++) s = afterFetch(s, 24 + r, true, policy);
  assert.equal(s.fr, 8, 'bounded by fr_max');
});

test('selective-incremental parent rule with an adaptive threshold', () => {
  let rule = { threshold: 0.5 };
  assert.equal(shouldRecrawlParent(rule, 3, 4), true);
  assert.equal(shouldRecrawlParent(rule, 2, 4), false);
  assert.equal(shouldRecrawlParent(rule, 0, 0), false);
  rule = adaptParentRule(rule, false);
  assert.equal(shouldRecrawlParent(rule, 5, 9), false, 'a wasted refetch raises the bar');
  rule = adaptParentRule(adaptParentRule(rule, true), true);
  assert.ok(Math.abs(rule.threshold - 0.4) < 1e-12);
  for (let i = 0; i < 20; i++) rule = adaptParentRule(rule, true);
  assert.equal(rule.threshold, 0.05);
});
