import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readCoherenceReport, reportPollMs } from '../../../app/crawls/[id]/coherence/use-coherence';
import type { CoherenceReport } from '../../../worker/coherence/coherence-report';

const report = (pages: number, version: string, finishedAt: string | null = null): CoherenceReport => ({
  crawlId: 7, crawl: { status: 'running', mode: 'visit-revisit', error: null }, run: { referenceTime: '2026-11-25T09:00:00.000Z', startedAt: '2026-11-25T09:00:00.000Z', finishedAt }, summary: null,
  pages, revisited: 0, afterReference: 0, histogram: [], certificateAvailable: false, version,
});

test('the view asks again less often the larger the report, and not once the run has finished', () => {
  assert.equal(reportPollMs(undefined), false);
  assert.equal(reportPollMs(report(10, 'v')), 3001);
  assert.equal(reportPollMs(report(20_000, 'v')), 5000);
  assert.equal(reportPollMs(report(100_000, 'v')), 13_000);
  const running = { status: 'running', mode: 'visit-revisit', error: null };
  assert.equal(reportPollMs({ pages: 0, run: null, crawl: running }), 3000, 'the visit pass, before the revisit pass starts');
  assert.equal(reportPollMs(report(100_000, 'v', '2026-11-25T10:00:00.000Z')), false);
});

test('the view does not ask again while the crawl has ended: a snapshot crawl, or one stopped or failed during its passes', () => {
  for (const status of ['finished', 'stopped', 'failed']) {
    assert.equal(reportPollMs({ pages: 0, run: null, crawl: { status, mode: 'snapshot', error: null } }), false, status);
    assert.equal(reportPollMs({ ...report(10, 'v'), crawl: { status, mode: 'visit-revisit', error: null } }), false, `${status} during the revisit pass`);
  }
  for (const status of ['created', 'running', 'paused', 'stopping']) assert.equal(reportPollMs({ ...report(10, 'v'), crawl: { status, mode: 'visit-revisit', error: null } }), 3001, status);
});

test('the view asks with the version it has and keeps its report when the server says it has not changed', async () => {
  const asked: (string | null)[] = [];
  const answers = [Response.json(report(2, 'v1')), new Response(null, { status: 304 }), Response.json(report(3, 'v2'))];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (_url: string, init: RequestInit) => {
    asked.push(new Headers(init.headers).get('if-none-match'));
    return answers.shift()!;
  }) as typeof fetch;
  try {
    const first = await readCoherenceReport(7, undefined);
    assert.deepEqual(first, report(2, 'v1'));
    assert.equal(await readCoherenceReport(7, first), first, 'the same object: nothing to draw again');
    assert.deepEqual(await readCoherenceReport(7, first), report(3, 'v2'));
    assert.deepEqual(asked, [null, '"v1"', '"v1"']);
  } finally {
    globalThis.fetch = realFetch;
  }
});
