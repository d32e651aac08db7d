/**
 * Long runs of CPU work cut into slices, the event loop having a turn between two (setImmediate):
 * while the crawl's thread is held, every host's politeness timer waits, so a polite crawl of many
 * hosts stalls for as long as the longest run.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Calls `step` on each of `items` in order, `sliceSize` at a time, with a turn of the event loop between two slices. */
export async function eachInSlices<T>(items: readonly T[], sliceSize: number, step: (item: T) => void): Promise<void> {
  for (let at = 0; at < items.length; at += sliceSize) {
    if (at > 0) await nextTurn();
    const end = Math.min(at + sliceSize, items.length);
    for (let i = at; i < end; i++) step(items[i]!);
  }
}

/** `items.filter(keep)`, `sliceSize` items at a time, with a turn of the event loop between two slices. */
export async function filterInSlices<T>(items: readonly T[], sliceSize: number, keep: (item: T) => boolean): Promise<T[]> {
  const kept: T[] = [];
  await eachInSlices(items, sliceSize, (item) => {
    if (keep(item)) kept.push(item);
  });
  return kept;
}
