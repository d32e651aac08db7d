import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recrawlStart, type PageCapture } from '../../../worker/crawler/recrawl-answer';

const answer = (status: number, payloadDigest: string, depth = 1, truncated: string | null = null): PageCapture => ({ status, depth, payloadDigest, truncated });

test('a page\'s recrawls start from its latest answer whatever its status, as a round compares it', () => {
  // Latest first.
  assert.deepEqual(recrawlStart([answer(200, 'sha1:B'), answer(200, 'sha1:A')]), { depth: 1, answer: 'sha1:B' });
  assert.deepEqual(recrawlStart([answer(404, 'sha1:GONE', 2), answer(200, 'sha1:A')]), { depth: 2, answer: 'status:404' }, 'gone since its visit: compared by the status');
  assert.deepEqual(recrawlStart([answer(301, 'sha1:MOVED'), answer(200, 'sha1:A')]), { depth: 1, answer: 'status:301' });
  assert.deepEqual(recrawlStart([answer(304, 'sha1:A'), answer(200, 'sha1:A')]), { depth: 1, answer: 'sha1:A' }, 'a 304 answered the payload its record points to');
});

test('a transient failure is no answer about the page: its recrawls start from the answer before', () => {
  for (const status of [503, 429, 408]) assert.deepEqual(recrawlStart([answer(status, 'sha1:ERR'), answer(200, 'sha1:A')]), { depth: 1, answer: 'sha1:A' }, String(status));
  assert.equal(recrawlStart([answer(503, 'sha1:ERR')]), null, 'no answer at all');
});

test('a body a failed fetch cut off is not the page\'s content: its recrawls start from the answer before, or from none known', () => {
  for (const cut of ['disconnect', 'time']) {
    assert.deepEqual(recrawlStart([answer(200, 'sha1:HALF', 1, cut), answer(200, 'sha1:A')]), { depth: 1, answer: 'sha1:A' }, cut);
    assert.deepEqual(recrawlStart([answer(200, 'sha1:HALF', 2, cut)]), { depth: 2, answer: null }, `${cut}: still a page to recrawl, its content unknown`);
    assert.deepEqual(recrawlStart([answer(503, 'sha1:ERR'), answer(200, 'sha1:HALF', 1, cut)]), { depth: 1, answer: null }, `${cut}, then no answer`);
  }
  // Every fetch of the page cuts it at the same place: comparable.
  assert.deepEqual(recrawlStart([answer(200, 'sha1:CAPPED', 1, 'length'), answer(200, 'sha1:A')]), { depth: 1, answer: 'sha1:CAPPED' }, 'cut at the size cap');
});
