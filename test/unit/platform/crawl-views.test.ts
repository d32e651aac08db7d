import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSeconds } from '../../../app/lib/server/crawl-views';
import { shownRate } from '../../../app/lib/client/queries';

const at = (s: number) => new Date(Date.UTC(2026, 10, 24, 10) + s * 1000);

test('a crawl has run for the sum of its runs; an open run counts only while the crawl runs', () => {
  const runs = [{ startedAt: at(0), endedAt: at(20) }, { startedAt: at(50), endedAt: at(62.5) }];
  assert.equal(runSeconds(runs, false, at(100).getTime()), 32.5, 'the pause between the runs is not counted');
  const open = [...runs, { startedAt: at(80), endedAt: null }];
  assert.equal(runSeconds(open, true, at(90).getTime()), 42.5);
  assert.equal(runSeconds(open, false, at(90).getTime()), 32.5, 'a run its worker never closed has no known length');
  assert.equal(runSeconds([], false, at(0).getTime()), 0);
  // A worker that died (kill -9) left its run open; the crawl runs again in a new one.
  const crashed = [{ startedAt: at(0), endedAt: null }, { startedAt: at(50), endedAt: null }];
  assert.equal(runSeconds(crashed, true, at(60).getTime()), 10, "only the latest run counts up to now: the dead worker's has no known length");
});

test('pages/s: the live rate while a crawl runs, its average over the time it ran once it stops', () => {
  const stats = { pagesPerSecond: 10, fetched: 500 };
  assert.deepEqual(shownRate({ status: 'running', stats, runSeconds: 100 }), { value: 10, average: false });
  assert.deepEqual(shownRate({ status: 'stopping', stats, runSeconds: 100 }), { value: 10, average: false });
  assert.deepEqual(shownRate({ status: 'finished', stats, runSeconds: 100 }), { value: 5, average: true });
  assert.deepEqual(shownRate({ status: 'paused', stats, runSeconds: 250 }), { value: 2, average: true });
  assert.deepEqual(shownRate({ status: 'finished', stats, runSeconds: 0 }), { value: 10, average: false }, 'no run time known');
  assert.deepEqual(shownRate({ status: 'created', stats: null, runSeconds: 0 }), { value: 0, average: false });
});
