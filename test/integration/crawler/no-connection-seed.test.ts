/**
 * A seed on a host no connection can be made to fails as a fetch failure naming why, after the
 * fetcher's short retries of robots.txt — not, a minute or more later, as a robots exclusion
 * ('robots-unavailable'), which is for a server that answers robots.txt with 5xx. Two such hosts: a
 * closed loopback port (refused), and a port whose accept queue is full (startBlackholeServer: the
 * handshake never completes, as behind a firewall dropping packets; connect timeout). A live seed
 * beside it is captured and the crawl ends. The real CLI (politeness on, as an archivist runs it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBlackholeServer } from '../../fixtures/servers/fixture-server';
import { assertHumanSummary, crawlDeadSeed } from '../../support/dead-seed';
import { freePort } from '../../support/free-port';

const NO_CONNECTION_MESSAGE = /^no connection to the host for robots\.txt \(.*\); the URL was not requested$/;

test('a seed on a closed port fails with connect-refused after robots.txt\'s short retries; the live seed beside it is captured', { timeout: 150_000 }, async () => {
  const refused = `http://127.0.0.1:${await freePort()}/`;
  await crawlDeadSeed(refused, 'connect-refused', NO_CONNECTION_MESSAGE, (origin) => ['crawl', '--seed', refused, '--seed', `${origin}/`], async ({ origin, out, message }) => {
    assert.match(message, /ECONNREFUSED/);
    await assertHumanSummary(['crawl', '--seed', refused, '--seed', `${origin}/`], out, refused, 'connect-refused');
  });
});

test('a seed whose connections time out (packets dropped) fails with connect-timeout after robots.txt\'s three connect attempts, promptly; the live seed beside it is captured', { timeout: 180_000 }, async () => {
  const hole = await startBlackholeServer();
  try {
    const dark = `${hole.url}/`;
    const icd = (origin: string, out: string) => {
      const path = join(out, 'icd.json');
      writeFileSync(path, JSON.stringify({ name: 'black hole', seeds: [dark, `${origin}/`], limits: { connectTimeoutMs: 500 } }));
      return ['crawl', path];
    };
    await crawlDeadSeed(dark, 'connect-timeout', NO_CONNECTION_MESSAGE, icd, async ({ message, tookMs }) => {
      assert.match(message, /\(connect timeout after 500 ms\)/);
      // Three attempts of 500 ms and the host's delay between them take a few seconds; the robots
      // cache's backoff (15–30 s, then 30–60 s) before excluding the host took over a minute.
      assert.ok(tookMs < 30_000, `the crawl ended in ${tookMs} ms`);
    });
  } finally {
    await hole.close();
  }
});
