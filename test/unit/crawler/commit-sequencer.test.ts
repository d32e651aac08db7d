import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CommitSequencer } from '../../../worker/crawler/commit-sequencer';

test('commits run in ticket order whatever order their work finishes in', async () => {
  const seq = new CommitSequencer();
  const order: number[] = [];
  const tickets = [seq.ticket(), seq.ticket(), seq.ticket()];
  const delays = [30, 0, 10];
  await Promise.all(
    tickets.map(async (t, i) => {
      await new Promise((r) => setTimeout(r, delays[i]));
      await seq.turn(t);
      order.push(t);
      seq.settle(t);
    }),
  );
  assert.deepEqual(order, [0, 1, 2]);
});

test('settling out of order is a programming error', () => {
  const seq = new CommitSequencer();
  seq.ticket();
  const second = seq.ticket();
  assert.throws(() => seq.settle(second), /out of order/);
});
