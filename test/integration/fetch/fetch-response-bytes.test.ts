/**
 * Whether a cut connection brought any byte of THIS request's answer, as robots.txt's settling and
 * recrawl rounds' host back-off read it (gotNoAnswer): not the bytes of earlier answers on a
 * kept-alive connection, and counted also when the error is a bare ECONNRESET.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { createFetcher, gotNoAnswer, type Fetcher } from '../../../worker/fetch';
import { startRawServer } from '../../fixtures/servers/fixture-server';

const limits = { connectTimeoutMs: 500, headersTimeoutMs: 1000, totalTimeoutMs: 2000, maxBodyBytes: 1024 * 1024, maxRetries: 0 };
let spoolDir: string;
let fetcher: Fetcher;

before(async () => {
  spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-response-bytes-'));
  fetcher = createFetcher({ userAgent: 'Tidemark-test', limits, spoolDir });
});
after(async () => {
  await fetcher.close();
  await rm(spoolDir, { recursive: true, force: true });
});

/** Hangs up without a byte: FIN, or RST once what was written before has left. */
const hangUp = (socket: Socket, how: 'close' | 'reset') => (how === 'close' ? socket.end() : socket.resetAndDestroy());

for (const how of ['close', 'reset'] as const) {
  test(`a kept-alive connection hung up (${how === 'close' ? 'FIN' : 'RST'}) before a byte of the robots.txt answer: no answer, though the connection read earlier answers`, async () => {
    // Pages are answered in full, kept alive; robots.txt on a connection that answered before gets nothing.
    const robotsOnConnection: number[] = [];
    const server = await startRawServer((socket, head, nOnConnection) => {
      if (head.toString('latin1').startsWith('GET /robots.txt ')) {
        robotsOnConnection.push(nOnConnection);
        return hangUp(socket, how);
      }
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok');
    });
    try {
      // undici's pool takes turns between two idle connections: a few pages put one back in turn.
      for (const page of ['/a', '/b', '/c']) assert.equal((await fetcher.fetch(`${server.url}${page}`)).ok, true);
      const outcome = await fetcher.fetch(`${server.url}/robots.txt`);
      assert.ok(robotsOnConnection[0]! > 1, `robots.txt went on a connection that answered before (request ${robotsOnConnection[0]} on it)`);
      assert.equal(outcome.ok, false);
      assert.equal(!outcome.ok && outcome.reason, 'connection-reset');
      assert.equal(gotNoAnswer(outcome), true, JSON.stringify(outcome));
    } finally {
      await server.close();
    }
  });
}

test('half a status line, then a reset (a bare ECONNRESET): bytes of the answer arrived, an answer that was cut', async () => {
  // A server that crashes a moment after it began to answer. Reset at once, the bytes and the RST
  // arrive together and undici sees an end of stream ("other side closed", with the socket's counts).
  const server = await startRawServer((socket) => void socket.write('HTTP/1.1 2', () => setTimeout(() => socket.resetAndDestroy(), 250)));
  try {
    const outcome = await fetcher.fetch(`${server.url}/robots.txt`);
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.reason, 'connection-reset');
    assert.match(!outcome.ok ? outcome.message : '', /ECONNRESET/, 'the error tells no byte counts');
    assert.equal(!outcome.ok && outcome.bytesRead, 'HTTP/1.1 2'.length, JSON.stringify(outcome));
    assert.equal(gotNoAnswer(outcome), false);
  } finally {
    await server.close();
  }
});

test('part of a response head, then a stall until the headers timeout: bytes of the answer arrived, an answer that was cut, not silence', async () => {
  // A server that began its answer and hung (a stuck upstream behind a proxy that already wrote the status line).
  const sent = 'HTTP/1.1 200 OK\r\nContent-Ty';
  const server = await startRawServer((socket) => void socket.write(sent));
  try {
    const outcome = await fetcher.fetch(`${server.url}/robots.txt`);
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.reason, 'headers-timeout');
    assert.equal(!outcome.ok && outcome.bytesRead, sent.length, JSON.stringify(outcome));
    assert.equal(gotNoAnswer(outcome), false);
  } finally {
    await server.close();
  }
});
