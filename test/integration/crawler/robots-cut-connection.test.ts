/**
 * robots.txt requests cut before a whole response head, crawled with the real CLI and no fetch
 * retries (each try of robots.txt is one request): the tries the server sees tell whether a cut
 * counted as silence (two tries, the host settled) or as an answer that broke (three tries, then
 * disallow-all). What counts is the bytes of robots.txt's own answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import Database from 'better-sqlite3';
import { startRawServer, type FixtureServer } from '../../fixtures/servers/fixture-server';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';

const page = (body: string) => `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

interface Crawled {
  summary: { outcome: string; failuresByReason: Record<string, number>; excludedByReason: Record<string, number> };
  /** The crawl-log entries of `url`. */
  log: { outcome: string; message: string }[];
}

/** Crawls `seed` on `server` (pages under `ignoreRobotsFor` need no robots.txt) and reads what became of `url`. */
async function crawl(server: FixtureServer, seed: string, url: string, ignoreRobotsFor: string[] = []): Promise<Crawled> {
  return withTempDir('tm-robots-cut-', async (out) => {
    const icdPath = join(out, 'icd.json');
    writeFileSync(icdPath, JSON.stringify({
      name: 'robots.txt cut',
      seeds: [seed],
      politeness: { ignoreRobotsFor, minDelayMs: 100 },
      limits: { maxRetries: 0, headersTimeoutMs: 2_000, totalTimeoutMs: 5_000 },
    }));
    const run = await runCli(['crawl', icdPath, '--out', out, '--json']).done;
    assert.equal(run.code, 0, run.stderr.slice(-1000));
    const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Crawled['summary'];
    const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
    try {
      return { summary, log: db.prepare('SELECT outcome, message FROM CrawlLogEntry WHERE url = ?').all(url) as Crawled['log'] };
    } finally {
      db.close();
    }
  });
}

/** A raw server answering robots.txt with `robots` and other paths with `pages` (or a plain page). */
async function serve(robots: (socket: Socket, nOnConnection: number) => void, pages: Record<string, string> = {}): Promise<FixtureServer> {
  return startRawServer((socket, head, nOnConnection) => {
    const path = head.toString('latin1').split(' ', 2)[1]!;
    if (path === '/robots.txt') return robots(socket, nOnConnection);
    socket.write(page(pages[path] ?? '<p>a page</p>'));
  });
}

test('robots.txt hung up on over a connection that answered pages before: settled after two tries as a silent host', { timeout: 240_000 }, async () => {
  // A chain /open/a → /open/b → /closed: two pages on the connections (undici's pool takes turns
  // between two), then robots.txt for /closed on the first, kept alive, and closed without a byte.
  const robotsOnConnection: number[] = [];
  const server = await serve((socket, n) => (robotsOnConnection.push(n), socket.end()), { '/open/a': '<a href="/open/b">b</a>', '/open/b': '<a href="/closed">closed</a>' });
  try {
    const closed = `${server.url}/closed`;
    const { summary, log } = await crawl(server, `${server.url}/open/a`, closed, [`${server.url}/open/`]);
    assert.ok(robotsOnConnection[0]! > 1, `the first robots.txt request went on a connection that had answered before (its request ${robotsOnConnection[0]})`);
    assert.equal(robotsOnConnection.length, 2, 'two tries of robots.txt, not three');
    assert.equal(summary.outcome, 'finished');
    assert.deepEqual(summary.failuresByReason, { 'connection-reset': 1 });
    assert.deepEqual(summary.excludedByReason, {}, 'not excluded as robots.txt unavailable');
    assert.equal(log.length, 1, JSON.stringify(log));
    assert.equal(log[0]!.outcome, 'connection-reset');
    assert.match(log[0]!.message, /^no answer from the host for robots\.txt, tried twice \(.*other side closed.*\); the page was not requested$/);
  } finally {
    await server.close();
  }
});

test('robots.txt answered with half a status line and then a reset: an answer that broke, three tries, then disallow-all', { timeout: 240_000 }, async () => {
  // Reset a moment after the bytes, once they were read: a bare ECONNRESET, which tells no byte counts.
  const server = await serve((socket) => void socket.write('HTTP/1.1 2', () => setTimeout(() => socket.resetAndDestroy(), 250)));
  try {
    const seed = `${server.url}/`;
    const { summary, log } = await crawl(server, seed, seed);
    assert.deepEqual(server.log.map((r) => r.path), Array(3).fill('/robots.txt'), 'three tries of robots.txt, not two; the page never');
    assert.equal(summary.outcome, 'finished');
    assert.deepEqual(summary.failuresByReason, {});
    assert.deepEqual(summary.excludedByReason, { 'robots-unavailable': 1 });
    assert.deepEqual(log.map((e) => e.outcome), ['robots-unavailable']);
  } finally {
    await server.close();
  }
});
