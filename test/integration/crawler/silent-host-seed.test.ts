/**
 * A seed on a server that accepts connections and never answers (no byte: every robots.txt request
 * ends in a headers timeout), or that closes each connection at once with nothing sent, settles
 * after the fetcher's own retries and one later try of robots.txt, as a failure naming the timeout
 * or the reset — not after the three tries and two backoffs a server answering 5xx gets (about 8–9
 * minutes with the ICD's default timeouts). A live seed beside it is captured and the crawl ends.
 * The real CLI, politeness on with short delays, short timeouts in the ICD, and waits between tries
 * of robots.txt from ROBOTS_BACKOFF_MS (TIDEMARK_TEST_ROBOTS_BACKOFF_MS) rather than the default 30 s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHangUpServer, startRawServer, type FixtureServer } from '../../fixtures/servers/fixture-server';
import { assertHumanSummary, crawlDeadSeed } from '../../support/dead-seed';

/** Base of the waits between tries of robots.txt: the first 1–2 s, a second (which must not come) 2–4 s. */
const ROBOTS_BACKOFF_MS = 2_000;
/**
 * The hosts' politeness: 200 ms between requests, not the default 1 s and twice the last response's
 * time (the 500 ms headers timeout), which set the pace of every retry, and of the live seed's
 * requests, which wait for the dead seed's end on the same address. Far below the robots backoff:
 * the gap between the tries below is the backoff's.
 */
const POLITENESS = { minDelayMs: 200, delayFactor: 0.2 };

const cases: { name: string; start: () => Promise<FixtureServer>; reason: string; path: string; message: RegExp }[] = [
  // Reads each request and writes nothing, ever.
  { name: 'accepts and never answers', start: () => startRawServer(() => undefined), reason: 'headers-timeout', path: '/robots.txt', message: /500 ms/ },
  // Closes each connection as it is accepted (its log: one '*' a connection); a request already in
  // its buffer makes the kernel send a reset: "other side closed" or ECONNRESET.
  { name: 'accepts and hangs up at once', start: () => startHangUpServer('close'), reason: 'connection-reset', path: '*', message: /other side closed|ECONNRESET/ },
];

for (const { name, start, reason, path, message } of cases) test(`a seed on a server that ${name} fails with ${reason} after two tries of robots.txt; the live seed beside it is captured`, { timeout: 240_000 }, async () => {
  const silent = await start();
  try {
    const dead = `${silent.url}/`;
    const icd = (origin: string, out: string) => {
      const icdPath = join(out, 'icd.json');
      writeFileSync(icdPath, JSON.stringify({ name: 'silent host', seeds: [dead, `${origin}/`], politeness: POLITENESS, limits: { headersTimeoutMs: 500, totalTimeoutMs: 2_000 } }));
      return ['crawl', icdPath];
    };
    const logMessage = /^no answer from the host for robots\.txt, tried twice \(.*\); the URL was not requested$/;
    await crawlDeadSeed(dead, reason, logMessage, icd, async ({ out, message: logged, tookMs }) => {
      assert.match(logged, message);
      // Two tries of robots.txt, each of three requests (the ICD's default maxRetries, 2); the page never.
      assert.deepEqual(silent.log.map((r) => r.path), Array(6).fill(path));
      // Two tries and one backoff (15–30 s by default) between them; the third try and second backoff (30–60 s) took a minute more.
      assert.ok(tookMs < 50_000, `the crawl ended in ${tookMs} ms`);
      // With the shortened waits the request count above tells the tries apart; and a backoff (at least
      // half its base) came between them.
      const gap = silent.log[3]!.at - silent.log[2]!.at;
      assert.ok(gap >= ROBOTS_BACKOFF_MS / 2, `${gap} ms between the tries`);
      await assertHumanSummary(['crawl', join(out, 'icd.json')], out, dead, reason);
    }, { TIDEMARK_TEST_ROBOTS_BACKOFF_MS: String(ROBOTS_BACKOFF_MS) });
  } finally {
    await silent.close();
  }
});
