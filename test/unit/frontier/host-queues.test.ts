/** The host-queues report read from a frontier's tables (worker/frontier/host-queues.ts), on an in-memory SQLite database. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { ensureFrontierTables, S } from '../../../worker/frontier/frontier-sql';
import { readHostQueues } from '../../../worker/frontier/host-queues';
import { backoffWords, waitingForHostsWords } from '../../../worker/frontier/host-queue-backoff';
import { HOST_OUTAGE_DDL } from '../../../worker/crawler/host-outages';

function frontierWith(rows: [crawlId: number, host: string, state: number, n: number][]): Database.Database {
  const db = new Database(':memory:');
  ensureFrontierTables(db);
  const insert = db.prepare(
    `INSERT INTO frontier_url (crawl_id, url_hash, url, host, depth, kind, state, precedence, score_raw, score_count, score_sum, discovered_at)
     VALUES (?, ?, ?, ?, 1, 'page', ?, 0, 0, 0, 0, 0)`,
  );
  let k = 0;
  for (const [crawlId, host, state, n] of rows) for (let i = 0; i < n; i++, k++) insert.run(crawlId, k, `http://${host}/${k}`, host, state);
  return db;
}

test('the largest queues first, with what each host has retrying and in flight; done, failed and excluded URLs are not waiting', () => {
  const db = frontierWith([
    [1, 'calendar.example', S.queued, 40], [1, 'calendar.example', S.inFlight, 1], [1, 'calendar.example', S.done, 500],
    [1, 'www.example', S.queued, 12], [1, 'www.example', S.retrying, 2], [1, 'www.example', S.failed, 3],
    [1, 'slow.example', S.retrying, 1],
    [1, 'spent.example', S.done, 9], [1, 'spent.example', S.excluded, 4],
    [2, 'other-crawl.example', S.queued, 99],
  ]);
  assert.deepEqual(readHostQueues(db, 1, 10), {
    queues: [
      { host: 'calendar.example', queued: 40, retrying: 0, inFlight: 1 },
      { host: 'www.example', queued: 12, retrying: 2, inFlight: 0 },
      { host: 'slow.example', queued: 0, retrying: 1, inFlight: 0 },
    ],
    hostCount: 3,
    waiting: 56,
  });
});

test('at most `limit` hosts, the counts still over all of them; a host beyond the largest queues but with a URL retrying keeps its queued count', () => {
  const db = frontierWith([
    [1, 'a.example', S.queued, 5], [1, 'b.example', S.queued, 4], [1, 'c.example', S.queued, 3], [1, 'c.example', S.retrying, 1],
  ]);
  const two = readHostQueues(db, 1, 2);
  assert.deepEqual(two.queues.map((q) => [q.host, q.queued, q.retrying]), [['a.example', 5, 0], ['b.example', 4, 0]]);
  assert.deepEqual([two.hostCount, two.waiting], [3, 13]);
  const one = readHostQueues(db, 1, 1);
  assert.deepEqual(one.queues.map((q) => q.host), ['a.example']);
  // With room for it, c.example is listed with its 3 queued URLs, though only its retrying one was read by the active index.
  assert.deepEqual(readHostQueues(db, 1, 3).queues.at(-1), { host: 'c.example', queued: 3, retrying: 1, inFlight: 0 });
});

test('a database whose worker never made the frontier tables has nothing waiting', () => {
  assert.deepEqual(readHostQueues(new Database(':memory:'), 1, 10), { queues: [], hostCount: 0, waiting: 0 });
});

test('a host in back-off is listed with its next try; one with nothing waiting is not', () => {
  const db = frontierWith([[1, 'big.example', S.queued, 50], [1, 'silent.example', S.queued, 3], [1, 'gone.example', S.failed, 7]]);
  db.exec(HOST_OUTAGE_DDL);
  const list = db.prepare('INSERT INTO engine_host_backoff (crawl_id, host, since, next_try_at, tries, reason) VALUES (?, ?, ?, ?, ?, ?)');
  list.run(1, 'silent.example', 1000, 61_000, 0, 'headers-timeout');
  list.run(1, 'gone.example', 1000, 61_000, 2, 'connect-refused');
  list.run(2, 'big.example', 1000, 61_000, 0, 'connect-refused');
  assert.deepEqual(readHostQueues(db, 1, 10).queues, [
    { host: 'big.example', queued: 50, retrying: 0, inFlight: 0 },
    { host: 'silent.example', queued: 3, retrying: 0, inFlight: 0, backoff: { since: 1000, nextTryAt: 61_000, tries: 0, reason: 'headers-timeout' } },
  ]);
  assert.deepEqual(readHostQueues(db, 1, 1).queues.map((q) => q.host), ['big.example'], 'the limit holds');
});

test('a back-off in words: the next try, the tries failed, the reason', () => {
  const time = (ms: number) => new Date(ms).toISOString().slice(11, 19);
  assert.equal(backoffWords({ since: 0, nextTryAt: 61_000, tries: 0, reason: 'headers-timeout' }, time), 'next try 00:01:01 (headers-timeout)');
  assert.equal(backoffWords({ since: 0, nextTryAt: 61_000, tries: 1, reason: 'connect-refused' }, time), 'next try 00:01:01, 1 try failed (connect-refused)');
  assert.equal(backoffWords({ since: 0, nextTryAt: 61_000, tries: 3, reason: 'dns' }, time), 'next try 00:01:01, 3 tries failed (dns)');
});

test("the crawl page's line while hosts are in back-off: how many, their next try", () => {
  const time = (ms: number) => new Date(ms).toISOString().slice(11, 19);
  assert.equal(waitingForHostsWords(1, '1970-01-01T00:01:01.000Z', time), "Waiting for 1 host that gives no answer: its URLs are held back; next try at 00:01:01. The host-queues report and the crawl log's host-backoff entries say which, and when one is given up.");
  assert.equal(waitingForHostsWords(1200, undefined, time), "Waiting for 1,200 hosts that give no answer: their URLs are held back. The host-queues report and the crawl log's host-backoff entries say which, and when one is given up.");
});
