import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSeconds, withListsCut } from '../../../app/lib/server/crawl-views';
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

test("a crawl's answer holds the first items of each list of its ICD copy, at any depth, and says how many each has", () => {
  const hosts = Array.from({ length: 30 }, (_, i) => `h${i}.example.org`);
  const aliases = Array.from({ length: 25 }, (_, i) => `alias ${i}`);
  const topicTerms = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`term${i}`, i % 2 ? i : -i]));
  const definition = {
    name: 'Harbour',
    seeds: hosts.slice(0, 3).map((h) => `https://${h}/`),
    scope: { maxPages: 10, allowedHosts: hosts, exclude: ['/private/'] },
    focus: { enabled: true, entities: [{ name: 'Port', type: 'location', aliases }, { name: 'Quay', type: 'location', aliases: ['pier'] }], topicTerms },
  };
  const { definition: cut, seedCount, listCounts } = withListsCut(definition, 20);
  assert.deepEqual(cut, {
    name: 'Harbour',
    seeds: definition.seeds,
    scope: { maxPages: 10, allowedHosts: hosts.slice(0, 20), exclude: ['/private/'] },
    focus: {
      enabled: true,
      entities: [{ name: 'Port', type: 'location', aliases: aliases.slice(0, 20) }, { name: 'Quay', type: 'location', aliases: ['pier'] }],
      // The 20 heaviest terms: the 15 odd ones (1…29), then 0, -2 … -8.
      topicTerms: Object.fromEntries(Object.entries(topicTerms).filter(([, w]) => w >= -8)),
    },
  });
  assert.deepEqual(listCounts, { 'scope.allowedHosts': 30, 'focus.entities.0.aliases': 25, 'focus.topicTerms': 30 });
  assert.equal(seedCount, 3, 'a short list is whole, and not in listCounts');
  assert.equal(definition.scope.allowedHosts.length, 30, 'the stored copy is left as it is');
  assert.deepEqual(withListsCut(definition, Infinity).definition, definition, 'whole when asked');
});

test('an ICD copy that cannot be read is shown as an empty one, without seeds', () => {
  assert.deepEqual(withListsCut(null, 20), { definition: {}, seedCount: 0, listCounts: {} });
  assert.deepEqual(withListsCut({ name: 'Old', seeds: 'https://a.example/' }, 20), { definition: { name: 'Old', seeds: 'https://a.example/' }, seedCount: 0, listCounts: {} });
});
