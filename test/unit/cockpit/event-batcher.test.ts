import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventBatcher } from '../../../worker/events/event-batcher';

const captures = (from: number, n: number) => Array.from({ length: n }, (_, k) => ({ id: from + k, url: `http://a/${from + k}` }));

test('a flush sends the newest 50 captures and the count of all those made since the last flush', () => {
  const batcher = new EventBatcher();
  // Three worker messages, each the newest 50 of 400 captures (a crawl of ~2,400 pages a second).
  for (let m = 0; m < 3; m++) batcher.push({ crawlId: 4, kind: 'capture', payload: captures(m * 400 + 350, 50), count: 400 });
  batcher.push({ crawlId: 5, kind: 'capture', payload: captures(1, 2) });
  const [four, five] = batcher.flush();
  const payload = four!.payload as { captures: { id: number }[]; count: number };
  assert.equal(payload.count, 1200);
  assert.deepEqual(payload.captures.map((c) => c.id), captures(1150, 50).map((c) => c.id));
  assert.deepEqual(five!.payload, { captures: captures(1, 2), count: 2 }, 'without a count: the captures it holds');
  assert.deepEqual(batcher.flush(), [], 'cleared');
});

test('stats and status keep only their latest value per flush', () => {
  const batcher = new EventBatcher();
  batcher.push({ crawlId: 1, kind: 'status', payload: { status: 'pausing' } });
  batcher.push({ crawlId: 1, kind: 'status', payload: { status: 'paused' } });
  assert.deepEqual(batcher.flush().map((e) => e.payload), [{ status: 'paused' }]);
});
