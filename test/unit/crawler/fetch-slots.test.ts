import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fetchSlotsOnly, freeSlots } from '../../../worker/crawler/fetch-slots';

test('a polite crawl, or a focused one with its analysis thread, counts only fetching pages against its slots', () => {
  assert.equal(fetchSlotsOnly({ batchSize: 1, analysisThread: false, polite: true }), true);
  assert.equal(fetchSlotsOnly({ batchSize: 1, analysisThread: true, polite: false }), true);
  assert.equal(fetchSlotsOnly({ batchSize: 1, analysisThread: false, polite: false }), false);
  // A host batch holds its slot for all of its URLs.
  assert.equal(fetchSlotsOnly({ batchSize: 5, analysisThread: true, polite: true }), false);
});

test('fetched pages waiting to be processed hold no fetch slot, up to as many again as the concurrency', () => {
  const s = { concurrency: 4, fetching: 1, inFlight: 4, budgetLeft: 100 };
  assert.equal(freeSlots(s, false), 0, 'every page in flight holds a slot');
  assert.equal(freeSlots(s, true), 3, 'three pages are being processed: their slots are free');
  assert.equal(freeSlots({ ...s, inFlight: 7 }, true), 1, 'at most 2 × concurrency pages in flight');
  assert.equal(freeSlots({ ...s, inFlight: 8 }, true), 0);
  assert.equal(freeSlots({ ...s, fetching: 4, inFlight: 4 }, true), 0, 'every fetch slot taken');
  assert.equal(freeSlots({ ...s, budgetLeft: 2 }, true), 2, 'never past the page budget');
  assert.equal(freeSlots({ ...s, inFlight: 2, budgetLeft: 1 }, false), 1);
});
