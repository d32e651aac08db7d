/**
 * A seed on a server that accepts connections and never answers (no byte: every robots.txt request
 * ends in a headers timeout), or that closes each connection at once with nothing sent, settles
 * after the fetcher's own retries and one later try of robots.txt, as a failure naming the timeout
 * or the reset — not after the three tries and two backoffs a server answering 5xx gets (about 8–9
 * minutes with the ICD's default timeouts). A live seed beside it is captured and the crawl ends.
 * The real CLI, politeness on, short timeouts in the ICD.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import Database from 'better-sqlite3';
import { startHangUpServer, startRawServer, type FixtureServer } from '../../fixtures/servers/fixture-server';
import { runCli } from '../../support/run-cli';
import { withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

const site: RequestListener = (req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
  if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>home</title>');
  res.writeHead(404).end();
};

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
    await withSite(site, async (origin) => {
      await withTempDir('tm-silent-seed-', async (out) => {
        const icdPath = join(out, 'icd.json');
        writeFileSync(icdPath, JSON.stringify({ name: 'silent host', seeds: [dead, `${origin}/`], limits: { headersTimeoutMs: 500, totalTimeoutMs: 2_000 } }));
        const started = Date.now();
        const run = await runCli(['crawl', icdPath, '--out', out, '--json']).done;
        const tookMs = Date.now() - started;
        assert.equal(run.code, 0, run.stderr.slice(-1000));
        const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
          outcome: string; failuresByReason: Record<string, number>; excludedByReason: Record<string, number>; seedProblems: { seed: string; outcome: string }[];
        };
        assert.equal(summary.outcome, 'finished');
        assert.deepEqual(summary.failuresByReason, { [reason]: 1 });
        assert.deepEqual(summary.excludedByReason, {});
        assert.deepEqual(summary.seedProblems, [{ seed: dead, outcome: `failed: ${reason}` }]);
        // Two tries of robots.txt, each of three requests (the ICD's default maxRetries, 2); the page never.
        assert.deepEqual(silent.log.map((r) => r.path), Array(6).fill(path));
        // Two tries and one backoff (15–30 s) between them; the third try and second backoff (30–60 s) took a minute more.
        assert.ok(tookMs < 50_000, `the crawl ended in ${tookMs} ms`);

        const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
        try {
          const log = db.prepare('SELECT url, outcome, status, message, retries FROM CrawlLogEntry WHERE url LIKE ? ORDER BY id').all(`${dead}%`) as
            { url: string; outcome: string; status: number | null; message: string; retries: number }[];
          assert.equal(log.length, 1, JSON.stringify(log));
          assert.equal(log[0]!.url, dead);
          assert.equal(log[0]!.outcome, reason);
          assert.equal(log[0]!.status, null);
          assert.match(log[0]!.message, /^no answer from the host for robots\.txt, tried twice \(.*\); the page was not requested$/);
          assert.match(log[0]!.message, message);
          assert.equal(log[0]!.retries, 2);
          assert.equal(db.prepare('SELECT reason FROM frontier_url WHERE url = ?').pluck().get(dead), reason);
          assert.deepEqual(db.prepare('SELECT url FROM Capture WHERE status = 200 ORDER BY url').pluck().all(), [`${origin}/`, `${origin}/robots.txt`]);
        } finally {
          db.close();
        }

        // The human summary names the failure and the seed (a run on the finished crawl's --out).
        const human = await runCli(['crawl', icdPath, '--out', out]).done;
        assert.equal(human.code, 0, human.stderr.slice(-1000));
        assert.match(human.stdout, new RegExp(`failures: ${reason} 1`));
        assert.match(human.stdout, new RegExp(`seed ${dead.replace(/[.]/g, '\\.')}: failed: ${reason}\\n`));
        assert.doesNotMatch(human.stdout, /excluded:/);
      });
    });
  } finally {
    await silent.close();
  }
});
