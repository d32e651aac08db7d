/**
 * robots.txt requests cut before a whole response head, crawled by the engine with no fetch
 * retries (each try of robots.txt is one request) and short waits between tries: the tries the
 * server sees tell whether a cut counted as silence (two tries, the host settled) or as an answer
 * that broke (three tries, then disallow-all). What counts is the bytes of robots.txt's own answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { startRawServer, type FixtureServer } from '../../fixtures/servers/fixture-server';
import { withCrawl } from '../../support/site-crawl';

const page = (body: string) => `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

interface Crawled {
  /** How the engine's run ended. */
  outcome: string;
  /** Every crawl-log entry, in order. */
  log: { url: string; outcome: string; message: string }[];
}

/** Crawls `seed` (pages under `ignoreRobotsFor` need no robots.txt) and reads the crawl log. */
async function crawl(seed: string, ignoreRobotsFor: string[] = []): Promise<Crawled> {
  let crawled: Crawled | undefined;
  const fields = {
    name: 'robots.txt cut',
    seeds: [seed],
    politeness: { enabled: true, ignoreRobotsFor, minDelayMs: 100 },
    limits: { maxRetries: 0, headersTimeoutMs: 2_000, totalTimeoutMs: 5_000 },
  };
  await withCrawl('tm-robots-cut-', fields, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), haltGraceMs: 100, robotsBackoff: { baseMs: 20, maxMs: 40 } });
    const outcome = await engine.run();
    const log = db.prepare('SELECT url, outcome, message FROM CrawlLogEntry WHERE crawlId = ? ORDER BY id').all(crawlId) as Crawled['log'];
    crawled = { outcome, log };
  });
  return crawled!;
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
    const { outcome, log: all } = await crawl(`${server.url}/open/a`, [`${server.url}/open/`]);
    assert.ok(robotsOnConnection[0]! > 1, `the first robots.txt request went on a connection that had answered before (its request ${robotsOnConnection[0]})`);
    assert.equal(robotsOnConnection.length, 2, 'two tries of robots.txt, not three');
    assert.equal(outcome, 'finished');
    // Each try of robots.txt logged (nothing to archive), then the page's failure; no exclusion as robots.txt unavailable.
    const robots = `${server.url}/robots.txt`;
    assert.deepEqual(all.filter((e) => e.outcome !== 'ok').map((e) => [e.url, e.outcome]), [[robots, 'connection-reset'], [robots, 'connection-reset'], [closed, 'connection-reset']]);
    assert.match(all.find((e) => e.url === robots)!.message, /^robots\.txt request got no answer \(.*\); robots\.txt is tried again in \d+ ms; the host's URLs wait$/);
    const log = all.filter((e) => e.url === closed);
    assert.equal(log.length, 1, JSON.stringify(log));
    assert.equal(log[0]!.outcome, 'connection-reset');
    assert.match(log[0]!.message, /^no answer from the host for robots\.txt, tried twice \(.*other side closed.*\); the URL was not requested$/);
  } finally {
    await server.close();
  }
});

test('robots.txt answered with half a status line and then a reset: an answer that broke, three tries, then disallow-all', { timeout: 240_000 }, async () => {
  // Reset a moment after the bytes, once they were read: a bare ECONNRESET, which tells no byte counts.
  const server = await serve((socket) => void socket.write('HTTP/1.1 2', () => setTimeout(() => socket.resetAndDestroy(), 250)));
  try {
    const seed = `${server.url}/`;
    const { outcome, log } = await crawl(seed);
    assert.deepEqual(server.log.map((r) => r.path), Array(3).fill('/robots.txt'), 'three tries of robots.txt, not two; the page never');
    assert.equal(outcome, 'finished');
    // Each try of robots.txt logged (half a status line is nothing to archive), then the seed excluded as robots.txt unavailable.
    const robots = [`${server.url}/robots.txt`, 'connection-reset'];
    assert.deepEqual(log.map((e) => [e.url, e.outcome]), [robots, robots, robots, [seed, 'robots-unavailable']]);
    assert.match(log[2]!.message, /; its tries are spent: the host is treated as disallowing every URL \(robots-unavailable\)$/);
  } finally {
    await server.close();
  }
});
