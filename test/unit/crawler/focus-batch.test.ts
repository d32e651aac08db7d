import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPageAnalyzer, DEFAULT_MODULE_WEIGHTS } from '../../../worker/analyze';
import { createTextAnalyzer, DocumentFrequencies } from '../../../worker/text';
import { FocusBatch } from '../../../worker/crawler/focus-batch';
import { runHostBatch, type HostBatchDeps } from '../../../worker/crawler/host-batch';
import type { Lease } from '../../../worker/frontier';

const topicVector = new Map([['glacier', 1], ['ice', 0.8], ['melt', 0.6]]);
const analyzer = () => createPageAnalyzer({ topicVector, analyzer: createTextAnalyzer({ language: 'eng' }), documentFrequencies: new DocumentFrequencies() });
const link = (url: string, words = 'more') => ({ url, anchorText: words, context: words });

test('a batch closes when its size in pages is reached, with one rescore per target and its evidence', () => {
  const a = analyzer();
  const batch = new FocusBatch(topicVector, DEFAULT_MODULE_WEIGHTS, 3);
  assert.equal(batch.add(a.analyze({ url: 'https://s.example/off', text: 'football scores and transfers', links: [link('https://t.example/x')] })), null);
  assert.equal(batch.add(a.analyze({ url: 'https://s.example/on1', text: 'glacier ice melt', links: [link('https://t.example/x'), link('https://doubleclick.net/ad')] })), null);
  assert.equal(batch.pending, 2);
  const closed = batch.add(a.analyze({ url: 'https://s.example/on2', text: 'melting glaciers and sea ice', links: [link('https://t.example/x')] }));
  assert.ok(closed, 'the third page fills the batch');
  assert.equal(batch.pending, 0);
  assert.deepEqual(closed.map((r) => r.url), ['https://t.example/x'], 'spam targets were never queued, so they are not rescored');
  const why = JSON.parse(closed[0]!.breakdown);
  assert.deepEqual(why.batch, { inLinks: 3, pages: 3 });
  assert.equal(why.priority, closed[0]!.score);
  assert.ok(why.scores.text > 0 && why.weights.text === 1, 'the cockpit reads scores and weights');
  // The off-topic page found x first: its single-link score is what x was queued with provisionally.
  const single = a.analyze({ url: 'https://s.example/off', text: 'football scores and transfers', links: [link('https://t.example/x')] }).links[0]!.priority;
  assert.ok(closed[0]!.score > single, `batch ${closed[0]!.score} > first single-link ${single}`);
  assert.deepEqual(batch.close(), [], 'an empty batch closes to nothing');
});

test('closing by hand (crawl end) gives the partial batch', () => {
  const a = analyzer();
  const batch = new FocusBatch(topicVector, DEFAULT_MODULE_WEIGHTS, 5);
  batch.add(a.analyze({ url: 'https://s.example/1', text: 'glacier', links: [link('https://t.example/a'), link('https://t.example/b')] }));
  const closed = batch.close();
  assert.deepEqual(closed.map((r) => r.url).sort(), ['https://t.example/a', 'https://t.example/b']);
  assert.equal(JSON.parse(closed[0]!.breakdown).batch.pages, 1);
  assert.throws(() => new FocusBatch(topicVector, DEFAULT_MODULE_WEIGHTS, 0), /at least 1/);
});

const lease = (n: number) => ({ token: n, url: `http://h.test/${n}`, host: 'h.test' }) as Lease;

function deps(over: Partial<HostBatchDeps> = {}) {
  const log: string[] = [];
  const d: HostBatchDeps = {
    process: async (l) => { log.push(`fetch ${l.token}`); return false; },
    readyAt: () => Number.NEGATIVE_INFINITY,
    polite: true,
    halted: () => false,
    release: (l) => log.push(`release ${l.token}`),
    ...over,
  };
  return { d, log };
}

test("a host batch is fetched one URL after another, in the frontier's order", async () => {
  const { d, log } = deps();
  let inFlight = 0;
  d.process = async (l) => {
    inFlight += 1;
    assert.equal(inFlight, 1, 'one request in flight for the host');
    await new Promise((r) => setImmediate(r));
    log.push(`fetch ${l.token}`);
    inFlight -= 1;
    return false;
  };
  await runHostBatch([lease(1), lease(2), lease(3)], d);
  assert.deepEqual(log, ['fetch 1', 'fetch 2', 'fetch 3']);
});

test('a pause, or an IP that turned out busy, gives the URLs not started back to the queue', async () => {
  let halted = false;
  const paused = deps({ halted: () => halted });
  paused.d.process = async (l) => { paused.log.push(`fetch ${l.token}`); halted = true; return false; };
  await runHostBatch([lease(1), lease(2), lease(3)], paused.d);
  assert.deepEqual(paused.log, ['fetch 1', 'release 2', 'release 3']);

  const busy = deps();
  busy.d.process = async (l) => { busy.log.push(`given back ${l.token}`); return true; };
  await runHostBatch([lease(1), lease(2)], busy.d);
  assert.deepEqual(busy.log, ['given back 1', 'release 2']);
});

test('the next URL of the batch does not start before the host is ready again', async () => {
  let readyAt = Number.NEGATIVE_INFINITY;
  const starts: { at: number; readyAt: number }[] = [];
  const { d } = deps({ readyAt: () => readyAt });
  d.process = async () => {
    starts.push({ at: Date.now(), readyAt });
    readyAt = Date.now() + 40; // the politeness delay after this request
    return false;
  };
  await runHostBatch([lease(1), lease(2), lease(3)], d);
  assert.equal(starts.length, 3);
  for (const s of starts.slice(1)) assert.ok(s.at >= s.readyAt, `started at ${s.at}, ready at ${s.readyAt}`);
});
