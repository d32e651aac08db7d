import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatElapsed, progressLine, reasonCounts, reportProgress } from '../../../worker/cli/progress';
import { progressEveryMs } from '../../../worker/cli/args';
import type { CrawlStats } from '../../../worker/events/messages';

const stats = (over: Partial<CrawlStats> = {}): CrawlStats => ({
  fetched: 12_345, queued: 4_567, inFlight: 32, failed: 3, failedByReason: { 'http-5xx': 2, dns: 1 }, excluded: 7,
  excludedByReason: { 'robots-unavailable': 1, 'out-of-scope': 6 }, bytes: 56_789_000, pagesPerSecond: 123.4, statusClasses: {}, updatedAt: '',
  ...over,
});

test('elapsed time reads h:mm:ss at any length', () => {
  assert.equal(formatElapsed(0), '0:00:00');
  assert.equal(formatElapsed(59_999), '0:00:59');
  assert.equal(formatElapsed(83_000), '0:01:23');
  assert.equal(formatElapsed(3 * 86_400_000 + 3_723_000), '73:02:03');
  assert.equal(formatElapsed(-5), '0:00:00', 'a clock that stepped back shows zero, not a negative time');
});

test('reason counts are listed largest first, ties by name', () => {
  assert.equal(reasonCounts({ 'robots-unavailable': 1, 'out-of-scope': 6, dns: 1 }), 'out-of-scope 6, dns 1, robots-unavailable 1');
  assert.equal(reasonCounts({ 'http-4xx': 12_000 }), 'http-4xx 12,000');
  assert.equal(reasonCounts({}), '');
});

test('a progress line gives elapsed time, pages, bytes, queue, failures, exclusions and the recent rate', () => {
  assert.equal(progressLine(stats(), 83_000), '0:01:23  12,345 pages  56.8 MB  4,567 queued  32 in flight  3 failed  7 excluded  123.4 pages/s');
});

test('a crawl waiting for hosts in back-off says so in its progress line, with the next try', () => {
  const waiting = stats({ fetched: 3, queued: 100, inFlight: 0, pagesPerSecond: 0, hostsInBackoff: 1, nextHostTryAt: '2030-01-02T03:04:05.678Z' });
  assert.equal(progressLine(waiting, 83_000), '0:01:23  3 pages  56.8 MB  100 queued  0 in flight  3 failed  7 excluded  0 pages/s  waiting for 1 host giving no answer, next try 03:04:05 UTC');
  assert.match(progressLine({ ...waiting, hostsInBackoff: 2 }, 0), /waiting for 2 hosts giving no answer/);
});

test('progress comes every second on a terminal, every 20 s in a log, never with --json unless asked for', () => {
  assert.equal(progressEveryMs({ json: false }, true), 1000);
  assert.equal(progressEveryMs({ json: false }, false), 20_000);
  assert.equal(progressEveryMs({ json: true }, true), null);
  assert.equal(progressEveryMs({ json: true, progressSeconds: 5 }, false), 5000);
  assert.equal(progressEveryMs({ json: false, progressSeconds: 0 }, true), null);
  assert.equal(progressEveryMs({ json: false, progressSeconds: 0.001 }, true), 100, 'no faster than ten times a second');
});

/** Collects what a reporter writes until `n` reports have come (or two seconds have passed). */
async function reports(tty: boolean, n: number): Promise<string> {
  let written = '';
  let reads = 0;
  const reporter = reportProgress(() => stats({ fetched: ++reads }), { write: (t: string) => (written += t) }, { tty, everyMs: 100 });
  for (let waited = 0; reads < n && waited < 2000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  reporter.stop();
  return written;
}

test('in a log each report is a line of its own; on a terminal one status line is rewritten, then cleared', async () => {
  const log = await reports(false, 2);
  const lines = log.split('\n').filter(Boolean);
  assert.ok(lines.length >= 2, log);
  assert.match(lines[0]!, /^tidemark: 0:00:00 {2}1 pages {2}/);
  assert.match(lines[1]!, /^tidemark: 0:00:00 {2}2 pages {2}/);
  assert.ok(!log.includes('\r'), 'no terminal control in a log');

  const tty = await reports(true, 2);
  assert.ok(!tty.includes('\n'), 'one line on a terminal');
  assert.match(tty, /^\r\x1b\[Ktidemark: 0:00:00 {2}1 pages .*\r\x1b\[Ktidemark: 0:00:00 {2}2 pages /);
  assert.ok(tty.endsWith('\r\x1b[K'), 'stopping clears the status line');
});
