import { test } from 'node:test';
import assert from 'node:assert/strict';
import { organPipesOrder, revisitOrder, scheduleFromVisitOrder, visitRevisitPyramid, type RatedPage } from '../../../worker/coherence';

const pages: RatedPage[] = Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, rate: i < 5 ? 500 + i : (i % 9) * 0.7 + 0.01 * i }));

test('organ pipes: coldest at both ends, hottest in the middle, every page once', () => {
  const order = organPipesOrder([{ id: 'a', rate: 1 }, { id: 'b', rate: 5 }, { id: 'c', rate: 3 }, { id: 'd', rate: 0 }, { id: 'e', rate: 4 }]);
  assert.deepEqual(order.map((p) => p.rate), [0, 3, 5, 4, 1]);
  const big = organPipesOrder(pages);
  assert.equal(new Set(big.map((p) => p.id)).size, pages.length);
  const mid = Math.floor(big.length / 2);
  const maxRate = Math.max(...pages.map((p) => p.rate));
  assert.ok([big[mid - 1]!.rate, big[mid]!.rate].includes(maxRate));
  // Rates rise towards the middle from both ends.
  for (let i = 1; i < mid; i++) assert.ok(big[i]!.rate >= big[i - 1]!.rate);
  for (let i = mid + 1; i < big.length; i++) assert.ok(big[i]!.rate <= big[i - 1]!.rate);
});

test('every visit–revisit interval of the pyramid contains the reference time, and they nest', () => {
  const s = visitRevisitPyramid(pages, { slotDays: 1 / 1440 });
  assert.equal(s.visits.length, pages.length);
  assert.equal(s.revisits.length, pages.length);
  assert.deepEqual([...s.visits].sort(), pages.map((p) => p.id).sort());
  const intervals = [...s.slots.values()];
  for (const iv of intervals) assert.ok(iv.visit < s.referenceSlot && s.referenceSlot < iv.revisit);
  // Slots are a permutation: one fetch per slot.
  assert.deepEqual(intervals.map((i) => i.visit).sort((a, b) => a - b), pages.map((_, k) => k));
  assert.deepEqual(intervals.map((i) => i.revisit).sort((a, b) => a - b), pages.map((_, k) => pages.length + k));
  const sorted = intervals.sort((a, b) => (a.revisit - a.visit) - (b.revisit - b.visit));
  for (let k = 1; k < sorted.length; k++) assert.ok(sorted[k]!.visit < sorted[k - 1]!.visit && sorted[k]!.revisit > sorted[k - 1]!.revisit);
});

test('the pyramid gives hopeful hot pages the short intervals and hopeless ones the long', () => {
  const s = visitRevisitPyramid(pages, { slotDays: 1 / 1440, hopelessBelow: 0.05 });
  const len = (id: string) => s.slots.get(id)!.revisit - s.slots.get(id)!.visit;
  // p0..p4 change ~500 times a day: even one minute gives exp(−0.35) … they are hopeless only if
  // the interval they would get is long; with 40 pages a 3-minute ring has exp(−1.04) > 0.05.
  for (const id of s.hopeless) assert.ok(pages.find((p) => p.id === id)!.rate >= 500);
  const hopeful = pages.filter((p) => !s.hopeless.has(p.id)).sort((a, b) => b.rate - a.rate);
  for (let k = 1; k < hopeful.length; k++) assert.ok(len(hopeful[k]!.id) > len(hopeful[k - 1]!.id));
  for (const id of s.hopeless) for (const p of hopeful) assert.ok(len(id) > len(p.id));
  // Very hot pages on a slow schedule are all hopeless, and sit outermost.
  const mixed = pages.map((p, i) => (i < 5 ? p : { id: p.id, rate: 0.01 * i }));
  const slow = visitRevisitPyramid(mixed, { slotDays: 1 / 100 });
  assert.deepEqual([...slow.hopeless].sort(), ['p0', 'p1', 'p2', 'p3', 'p4']);
  assert.ok(slow.visits.slice(0, 5).every((id) => slow.hopeless.has(id)));
});

test('FIFO and LIFO revisits after a given visit order', () => {
  const fifo = scheduleFromVisitOrder(['a', 'b', 'c'], 'fifo');
  assert.deepEqual(fifo.revisits, ['a', 'b', 'c']);
  assert.deepEqual(fifo.slots.get('a'), { visit: 0, revisit: 3 });
  const lifo = scheduleFromVisitOrder(['a', 'b', 'c'], 'lifo');
  assert.deepEqual(lifo.revisits, ['c', 'b', 'a']);
  assert.deepEqual(lifo.slots.get('c'), { visit: 2, revisit: 3 });
  for (const s of [fifo, lifo]) for (const iv of s.slots.values()) assert.ok(iv.visit < s.referenceSlot && iv.revisit > s.referenceSlot);
});

test('engine revisit order: LIFO without rates; with rates hottest hopeful first, hopeless last', () => {
  const visited = [{ id: 'a', visitedAt: 0, rate: null }, { id: 'b', visitedAt: 1000, rate: null }, { id: 'c', visitedAt: 2000, rate: null }];
  assert.deepEqual(revisitOrder(visited, 3000, 1 / 86400).order, ['c', 'b', 'a']);
  const rated = [{ id: 'a', visitedAt: 0, rate: 5 }, { id: 'b', visitedAt: 1000, rate: 0.1 }, { id: 'c', visitedAt: 2000, rate: 1e6 }];
  const r = revisitOrder(rated, 3000, 1 / 86400);
  assert.deepEqual(r.order, ['a', 'b', 'c']);
  assert.deepEqual([...r.hopeless], ['c']);
});
