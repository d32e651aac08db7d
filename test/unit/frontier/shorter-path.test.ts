import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CrawlState, SETTLED } from '../../../worker/frontier/crawl-state';
import { isShorterPath } from '../../../worker/frontier/shorter-path';

test('a discovery nearer the seeds is a shorter way; as near or farther is not', () => {
  assert.equal(isShorterPath({ depth: 3 }, { depth: 2 }), true);
  assert.equal(isShorterPath({ depth: 3, hops: 0 }, { depth: 1, hops: 0 }), true);
  assert.equal(isShorterPath({ depth: 3 }, { depth: 3 }), false, 'as near: the first way stands');
  assert.equal(isShorterPath({ depth: 2 }, { depth: 5 }), false);
});

test('a nearer way through more out-of-scope links is not taken; through as many or fewer it is', () => {
  assert.equal(isShorterPath({ depth: 4, hops: 1 }, { depth: 2, hops: 2 }), false, 'more hops would let fewer of its links through');
  assert.equal(isShorterPath({ depth: 4, hops: 1 }, { depth: 2, hops: 1 }), true);
  assert.equal(isShorterPath({ depth: 4, hops: 2 }, { depth: 2, hops: 0 }), true);
  // No hops counted (in the scope, or found on no page) counts as none.
  assert.equal(isShorterPath({ depth: 4, hops: null }, { depth: 2, hops: 0 }), true);
  assert.equal(isShorterPath({ depth: 4, hops: 0 }, { depth: 2 }), true);
  assert.equal(isShorterPath({ depth: 4, hops: null }, { depth: 2, hops: 1 }), false);
});

const politeness = { enabled: false, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 };
const crawlState = (maxDepth?: number) =>
  new CrawlState(1, { maxPages: 1e6, maxPagesPerHost: 1e6, politeness, ...(maxDepth === undefined ? {} : { maxDepth }) }, () => undefined);
const URL_A = 'http://a.test/chain/3';

test('under a depth limit the crawl knows the depth a known URL waits at until it leaves the queue', () => {
  const c = crawlState(5);
  c.knownUrls.set(URL_A, 7);
  c.noteQueuedDepth(URL_A, 3);
  assert.equal(c.queuedDeeper(URL_A, 2), true);
  assert.equal(c.queuedDeeper(URL_A, 3), false, 'found again as deep: nothing to do');
  c.markQueued(URL_A, 7);
  assert.equal(c.queuedDeeper(URL_A, 2), true, 'still waiting in its row: the depth noted stays');
  c.markQueued(URL_A, SETTLED);
  assert.equal(c.queuedDeeper(URL_A, 2), false, 'leased: it keeps the depth it is fetched at');
  c.markQueued(URL_A, 7, 4);
  assert.equal(c.queuedDeeper(URL_A, 3), true, 'queued again (given back, to be retried) at the depth its row says');
});

test('without a depth limit, or for a URL the crawl does not know, no depth is kept', () => {
  const unlimited = crawlState();
  unlimited.knownUrls.set(URL_A, 7);
  unlimited.noteQueuedDepth(URL_A, 3);
  assert.equal(unlimited.queuedDeeper(URL_A, 0), false);
  const limited = crawlState(5);
  limited.noteQueuedDepth(URL_A, 3);
  assert.equal(limited.queuedDeeper(URL_A, 0), false, 'past the known set\'s cap the table alone answers');
});
