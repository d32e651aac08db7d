/**
 * Compression threads that cannot start: real threads, made to fail by Node's own limit on their
 * heap. (Threads stopped as they start or with jobs in hand: record-roundtrip.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { GzipPool, POLITE_HANDOVER_WAIT_MS } from '../../../worker/warc/gzip-pool';
import { sha1Digest } from '../../../worker/warc/warc-digest';

const head = 'WARC/1.1\r\nWARC-Type: resource\r\n';
const block = Buffer.from('a record block');

/** Threads this process has started so far (each new one's id is the next number). */
async function threadsStarted(): Promise<number> {
  const probe = new Worker('', { eval: true });
  const id = probe.threadId;
  await probe.terminate();
  return id;
}

test('threads that die as they start are replaced a few times, then every job fails with one error saying so', { timeout: 30_000 }, async () => {
  const before = await threadsStarted();
  // A heap of 1 MB: each thread runs out of memory as it starts (ERR_WORKER_OUT_OF_MEMORY).
  const pool = new GzipPool(1, 1, undefined, { maxOldGenerationSizeMb: 1 });
  try {
    const failure = await pool.compress(head, [block]).then(() => null, (err: unknown) => err as Error);
    await sleep(1000);
    const started = (await threadsStarted()) - before - 1;
    assert.equal(started, 3, `${started} threads started in a second`);
    const clear = /the WARC compression threads cannot start: 3 in a row stopped before taking a record \(the last: .*memory limit/;
    assert.match(String(failure?.message), clear);
    assert.equal((failure as { code?: string }).code, 'TIDEMARK_GZIP_THREADS');
    await assert.rejects(pool.compress(head, [block]), clear, 'a new job fails with the same error');
  } finally {
    await pool.close();
  }
});

/** Records the messages posted to any thread until `stop`. */
function recordPosts(): { posted: unknown[]; stop: () => void } {
  const posted: unknown[] = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker['postMessage']>) {
    posted.push(args[0]);
    return post.apply(this, args);
  };
  return { posted, stop: () => void (Worker.prototype.postMessage = post) };
}

test("a capture's records go to a thread in one message and come back in order, each a whole gzip member with its digest", async () => {
  const pool = new GzipPool(1, 1);
  const { posted, stop } = recordPosts();
  try {
    const blocks = ['GET / HTTP/1.1\r\n\r\n', 'HTTP/1.1 200 OK\r\n\r\n<p>page</p>', 'outlink: http://a.test/ a/@href\r\n'].map((t) => Buffer.from(t));
    const records = await pool.compressGroup(blocks.map((b, i) => ({ head: `WARC/1.1\r\nWARC-Type: t${i}\r\n`, blockParts: [b.subarray(0, 5), b.subarray(5)] })));
    assert.equal(posted.length, 1, 'one message for the three records');
    assert.equal(records.length, 3);
    records.forEach((r, i) => {
      const text = gunzipSync(r.member).toString();
      assert.equal(r.blockDigest, sha1Digest(blocks[i]!));
      assert.equal(text, `WARC/1.1\r\nWARC-Type: t${i}\r\nWARC-Block-Digest: ${r.blockDigest}\r\n\r\n${blocks[i]}\r\n\r\n`);
    });
  } finally {
    stop();
    await pool.close();
  }
});

test('with a hand-over wait (polite crawls), captures handed over together go to the thread in one message, and each comes back to its own caller', async () => {
  const pool = new GzipPool(1, 1, undefined, undefined, POLITE_HANDOVER_WAIT_MS);
  const { posted, stop } = recordPosts();
  try {
    await pool.compress(head, [block]); // the thread is up: later jobs are handed over at once
    posted.length = 0;
    const blocks = Array.from({ length: 5 }, (_, i) => Buffer.from(`capture ${i} `.repeat(i + 1)));
    const records = await Promise.all(blocks.map((b) => pool.compress(head, [b])));
    assert.equal(posted.length, 1, `${posted.length} messages for five captures handed over in one turn`);
    records.forEach((r, i) => {
      assert.equal(r.blockDigest, sha1Digest(blocks[i]!));
      assert.equal(gunzipSync(r.member).toString(), `${head}WARC-Block-Digest: ${r.blockDigest}\r\n\r\n${blocks[i]}\r\n\r\n`);
    });
  } finally {
    stop();
    await pool.close();
  }
});
