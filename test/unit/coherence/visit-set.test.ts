import { test } from 'node:test';
import assert from 'node:assert/strict';
import { visitedAfterReference, visitSetCloses } from '../../../worker/coherence';
import { coherenceSchema } from '../../../worker/icd/schema';

const icdWith = (coherence: Record<string, unknown>) => ({ coherence: coherenceSchema.parse(coherence) });

test('only a visit–revisit capture without feeds or scheduled recrawls closes its visit set', () => {
  assert.equal(visitSetCloses(icdWith({ mode: 'visit-revisit' })), true);
  assert.equal(visitSetCloses(icdWith({ mode: 'visit-revisit', feeds: ['http://quay.test/feed.xml'] })), false, 'feeds go on queueing articles');
  assert.equal(visitSetCloses(icdWith({ mode: 'visit-revisit', recrawlIntervalMinutes: 60 })), false, 'recrawl rounds go on visiting');
  for (const mode of ['snapshot', 'snapshot-organ-pipes']) assert.equal(visitSetCloses(icdWith({ mode })), false, mode);
});

test('a page is visited after the reference time only strictly after it: the pass revisits one visited at that very instant', () => {
  const reference = Date.parse('2026-11-29T10:00:00Z');
  assert.equal(visitedAfterReference(reference - 1, reference), false);
  assert.equal(visitedAfterReference(reference, reference), false);
  assert.equal(visitedAfterReference(reference + 1, reference), true);
});
