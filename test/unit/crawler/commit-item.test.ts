/**
 * A page whose WARC records were written but whose URL goes back to the queue (a storage failure in
 * a stage after the WARC stage) leaves an unacknowledged capture in the file: no capture behind it
 * may be acknowledged, as after a refused commit (commit-sequencer.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { commitItem } from '../../../worker/crawler/commit-item';
import { CommitSequencer } from '../../../worker/crawler/commit-sequencer';
import { GroupCommit } from '../../../worker/crawler/group-commit';
import type { CrawlContext } from '../../../worker/crawler/crawl-context';
import type { CrawlItem } from '../../../worker/crawler/stage';
import type { Lease } from '../../../worker/frontier';

test('no capture behind one whose URL was given back after its records were written is acknowledged', async () => {
  const calls: string[] = [];
  const sequencer = new CommitSequencer();
  const ctx = {
    sequencer,
    commits: new GroupCommit(new Database(':memory:'), 0),
    crawlId: 1,
    icd: { focus: { enabled: false } },
    frontier: { release: (l: Lease) => calls.push(`release ${l.url}`), complete: (l: Lease) => calls.push(`complete ${l.url}`) },
    store: { addCapture: (c: { url: string }) => (calls.push(`capture ${c.url}`), 1), addLog: () => undefined },
    stats: { recordFetch: () => undefined },
    writer: { acknowledge: (f: string) => calls.push(`acknowledge ${f}`) },
  } as unknown as CrawlContext;
  const page = (url: string, ticket: number, released: boolean) => {
    const exchange = { url, status: 200, headers: {}, body: { kind: 'memory', bytes: Buffer.from('x') }, payloadDigest: 'sha1:X', date: new Date() };
    const location = { filename: 'f.warc.gz', offset: ticket * 100, length: 100, recordType: 'response', recordId: `<urn:uuid:${ticket}>` };
    const item = { url, host: 'a.test', depth: 0, priority: 1, ticket, exchange, location, released } as unknown as CrawlItem;
    return commitItem(item, { url, host: 'a.test', crawlId: 1, priority: 1 } as unknown as Lease, ctx);
  };
  const tickets = [sequencer.ticket(), sequencer.ticket(), sequencer.ticket()];
  await page('http://a.test/0', tickets[0]!, false);
  await Promise.all([page('http://a.test/1', tickets[1]!, true), page('http://a.test/2', tickets[2]!, false)]);
  assert.deepEqual(calls, ['capture http://a.test/0', 'complete http://a.test/0', 'acknowledge f.warc.gz', 'release http://a.test/1', 'release http://a.test/2']);
  assert.equal(sequencer.refusedAny, true, 'the run ends with its WARC file left for the next start to cut');
});

test('a URL excluded by robots.txt is logged and kept with what robots.txt said: disallowed, or unavailable', async () => {
  const logged: { url: string; outcome: string; message: string | null }[] = [];
  const failedAs: string[] = [];
  const ctx = {
    sequencer: new CommitSequencer(),
    commits: new GroupCommit(new Database(':memory:'), 0),
    crawlId: 1,
    icd: { focus: { enabled: false } },
    frontier: { fail: (_lease: Lease, reason: string) => failedAs.push(reason) > 0 },
    store: { addLog: (l: { url: string; outcome: string; message: string | null }) => void logged.push({ url: l.url, outcome: l.outcome, message: l.message }) },
    stats: { recordExclusion: () => undefined },
  } as unknown as CrawlContext;
  for (const [url, excludedReason] of [['http://a.test/private', 'robots'], ['http://b.test/page', 'robots-unavailable']] as const) {
    const item = { url, host: new URL(url).host, depth: 0, priority: 1, ticket: ctx.sequencer.ticket(), excludedReason } as unknown as CrawlItem;
    await commitItem(item, { url, host: item.host, crawlId: 1, priority: 1 } as unknown as Lease, ctx);
  }
  assert.deepEqual(logged, [
    { url: 'http://a.test/private', outcome: 'robots', message: 'disallowed by robots.txt' },
    { url: 'http://b.test/page', outcome: 'robots-unavailable', message: 'robots.txt could not be fetched: treated as disallowing the site' },
  ]);
  // The frontier's reason (the seeds report and URL look-up show it) says the same.
  assert.deepEqual(failedAs, ['robots-disallowed', 'robots-unavailable']);
});
