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
import type { RequestListener } from 'node:http';
import Database from 'better-sqlite3';
import { startBlackholeServer } from '../../fixtures/servers/fixture-server';
import { freePort } from '../../support/free-port';
import { runCli } from '../../support/run-cli';
import { withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

const site: RequestListener = (req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
  if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>home</title>');
  res.writeHead(404).end();
};

/**
 * Crawls `dead` beside the live site's seed with the CLI (`args` gives the crawl's arguments but
 * `--out` and `--json`) and checks that `dead` failed with `reason`, unrequested, with its robots.txt
 * tried three times (the ICD's default maxRetries, 2), nothing excluded, and the live seed captured.
 * Returns the crawl-log message and how long the crawl took.
 */
async function crawlDeadSeed(dead: string, reason: string, args: (origin: string, out: string) => string[], then: (o: { origin: string; out: string; message: string; tookMs: number }) => Promise<void>): Promise<void> {
  await withSite(site, async (origin) => {
    await withTempDir('tm-dead-seed-', async (out) => {
      const started = Date.now();
      const run = await runCli([...args(origin, out), '--out', out, '--json']).done;
      const tookMs = Date.now() - started;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
        outcome: string; failuresByReason: Record<string, number>; excludedByReason: Record<string, number>; seedProblems: { seed: string; outcome: string }[];
      };
      assert.equal(summary.outcome, 'finished');
      assert.deepEqual(summary.failuresByReason, { [reason]: 1 });
      assert.deepEqual(summary.excludedByReason, {}, 'nothing excluded: the host was never reached');
      assert.deepEqual(summary.seedProblems, [{ seed: dead, outcome: `failed: ${reason}` }]);

      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      let message: string;
      try {
        const log = db.prepare('SELECT url, outcome, status, message, retries FROM CrawlLogEntry WHERE url LIKE ? ORDER BY id').all(`${dead}%`) as
          { url: string; outcome: string; status: number | null; message: string; retries: number }[];
        assert.equal(log.length, 1, JSON.stringify(log));
        assert.equal(log[0]!.url, dead);
        assert.equal(log[0]!.outcome, reason);
        assert.equal(log[0]!.status, null);
        assert.match(log[0]!.message, /^no connection to the host for robots\.txt \(.*\); the page was not requested$/);
        // The ICD's default maxRetries (2): robots.txt was tried three times, the page not at all.
        assert.equal(log[0]!.retries, 2);
        message = log[0]!.message;
        assert.equal(db.prepare('SELECT reason FROM frontier_url WHERE url = ?').pluck().get(dead), reason);
        assert.deepEqual(db.prepare('SELECT url FROM Capture WHERE status = 200 ORDER BY url').pluck().all(), [`${origin}/`, `${origin}/robots.txt`]);
      } finally {
        db.close();
      }
      await then({ origin, out, message, tookMs });
    });
  });
}

test('a seed on a closed port fails with connect-refused after robots.txt\'s short retries; the live seed beside it is captured', { timeout: 150_000 }, async () => {
  const refused = `http://127.0.0.1:${await freePort()}/`;
  await crawlDeadSeed(refused, 'connect-refused', (origin) => ['crawl', '--seed', refused, '--seed', `${origin}/`], async ({ origin, out, message }) => {
    assert.match(message, /ECONNREFUSED/);
    // The human summary names the failure and the seed.
    const human = await runCli(['crawl', '--seed', refused, '--seed', `${origin}/`, '--out', out]).done;
    assert.equal(human.code, 0, human.stderr.slice(-1000));
    assert.match(human.stdout, /failures: connect-refused 1/);
    assert.match(human.stdout, new RegExp(`seed ${refused.replace(/[.]/g, '\\.')}: failed: connect-refused\\n`));
    assert.doesNotMatch(human.stdout, /excluded:/);
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
    await crawlDeadSeed(dark, 'connect-timeout', icd, async ({ message, tookMs }) => {
      assert.match(message, /\(connect timeout after 500 ms\)/);
      // Three attempts of 500 ms and the host's delay between them take a few seconds; the robots
      // cache's backoff (15–30 s, then 30–60 s) before excluding the host took over a minute.
      assert.ok(tookMs < 30_000, `the crawl ended in ${tookMs} ms`);
    });
  } finally {
    await hole.close();
  }
});
