/**
 * robots.txt asked on a kept-alive connection that answered pages before (pages under an
 * ignoreRobotsFor prefix need no robots.txt), by a server that hangs up on every robots.txt request
 * without a byte: silence at each try, so the host settles after two tries of robots.txt — the
 * earlier pages' bytes on that connection are no answer to robots.txt. The real CLI, no fetch retries
 * (each try one request, so the first goes on the kept-alive connection).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startRawServer } from '../../fixtures/servers/fixture-server';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';

const page = (body: string) => `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

test('robots.txt hung up on over a connection that answered pages before: settled after two tries as a silent host', { timeout: 240_000 }, async () => {
  // A chain /open/a → /open/b → /closed: two pages on the connections (undici's pool takes turns
  // between two), then robots.txt for /closed on the first, kept alive.
  const robotsOnConnection: number[] = [];
  const server = await startRawServer((socket, head, nOnConnection) => {
    const path = head.toString('latin1').split(' ', 2)[1];
    if (path === '/robots.txt') {
      robotsOnConnection.push(nOnConnection);
      return void socket.end();
    }
    if (path === '/open/a') return void socket.write(page('<a href="/open/b">b</a>'));
    if (path === '/open/b') return void socket.write(page('<a href="/closed">closed</a>'));
    socket.write(page('<p>closed</p>'));
  });
  try {
    await withTempDir('tm-robots-reused-', async (out) => {
      const closed = `${server.url}/closed`;
      const icdPath = join(out, 'icd.json');
      writeFileSync(icdPath, JSON.stringify({
        name: 'robots on a reused connection',
        seeds: [`${server.url}/open/a`],
        politeness: { ignoreRobotsFor: [`${server.url}/open/`], minDelayMs: 100 },
        limits: { maxRetries: 0, headersTimeoutMs: 2_000, totalTimeoutMs: 5_000 },
      }));
      const run = await runCli(['crawl', icdPath, '--out', out, '--json']).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      assert.ok(robotsOnConnection[0]! > 1, `the first robots.txt request went on a connection that had answered before (its request ${robotsOnConnection[0]})`);
      assert.equal(robotsOnConnection.length, 2, 'two tries of robots.txt, not three');
      const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { outcome: string; failuresByReason: Record<string, number>; excludedByReason: Record<string, number> };
      assert.equal(summary.outcome, 'finished');
      assert.deepEqual(summary.failuresByReason, { 'connection-reset': 1 });
      assert.deepEqual(summary.excludedByReason, {}, 'not excluded as robots.txt unavailable');
      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      try {
        const log = db.prepare('SELECT outcome, message FROM CrawlLogEntry WHERE url = ?').all(closed) as { outcome: string; message: string }[];
        assert.equal(log.length, 1, JSON.stringify(log));
        assert.equal(log[0]!.outcome, 'connection-reset');
        assert.match(log[0]!.message, /^no answer from the host for robots\.txt, tried twice \(.*other side closed.*\); the page was not requested$/);
      } finally {
        db.close();
      }
    });
  } finally {
    await server.close();
  }
});
