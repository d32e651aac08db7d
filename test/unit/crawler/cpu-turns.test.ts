import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { CpuTurns } from '../../../worker/crawler/cpu-turns';

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** Three pages that asked for a turn at once; the first one's work sets a timer that is due at once. */
async function threePagesAndATimer(turns: CpuTurns): Promise<string[]> {
  const order: string[] = [];
  const pages = ['a', 'b', 'c'].map((name) =>
    turns.take().then(() => {
      order.push(name);
      if (name === 'a') setTimeout(() => order.push('timer'), 0);
      busy(2);
    }),
  );
  await Promise.all(pages);
  await new Promise((resolve) => setTimeout(resolve, 5));
  return order;
}

test('a timer that comes due while pages wait runs between two pages, not after all of them', async () => {
  assert.deepEqual(await threePagesAndATimer(new CpuTurns(true)), ['a', 'timer', 'b', 'c']);
});

test('without politeness every turn is granted at once', async () => {
  assert.deepEqual(await threePagesAndATimer(new CpuTurns(false)), ['a', 'b', 'c', 'timer']);
});

test('pages get their turns in the order they asked; a page that had one already goes before those that have not', async () => {
  const turns = new CpuTurns(true);
  const order: string[] = [];
  const asked: Promise<void>[] = [];
  for (let i = 0; i < 3; i++) {
    asked.push(
      turns.take().then(() => {
        order.push(`parse ${i}`);
        // Granted its turn, a page asks again for its next stage (its links to plan): it goes before
        // the pages still waiting for their first, so its host's next URLs are not held back by them.
        if (i === 0) asked.push(turns.take(true).then(() => void order.push('plan 0')));
      }),
    );
  }
  await Promise.all(asked);
  await asked[3];
  assert.deepEqual(order, ['parse 0', 'plan 0', 'parse 1', 'parse 2']);
});
