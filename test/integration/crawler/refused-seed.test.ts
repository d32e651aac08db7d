/**
 * A seed whose server refuses connections (nothing listening on its port) fails as a fetch failure
 * naming the refusal, after the fetcher's short retries of robots.txt — not, a minute later, as a
 * robots exclusion ('robots-unavailable'), which is for a server that answers robots.txt with 5xx.
 * A live seed beside it is crawled as usual. A closed loopback port, a loopback site, the real CLI
 * (politeness on, as an archivist runs it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import Database from 'better-sqlite3';
import { freePort } from '../../support/free-port';
import { runCli } from '../../support/run-cli';
import { withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

const site: RequestListener = (req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
  if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>home</title>');
  res.writeHead(404).end();
};

test('a seed on a closed port fails with connect-refused after robots.txt\'s short retries; the live seed beside it is captured', { timeout: 150_000 }, async () => {
  const refused = `http://127.0.0.1:${await freePort()}/`;
  await withSite(site, async (origin) => {
    await withTempDir('tm-refused-seed-', async (out) => {
      const run = await runCli(['crawl', '--seed', refused, '--seed', `${origin}/`, '--out', out, '--json']).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
        outcome: string; failuresByReason: Record<string, number>; excludedByReason: Record<string, number>; seedProblems: { seed: string; outcome: string }[];
      };
      assert.equal(summary.outcome, 'finished');
      assert.deepEqual(summary.failuresByReason, { 'connect-refused': 1 });
      assert.deepEqual(summary.excludedByReason, {}, 'nothing excluded: the host was never reached');
      assert.equal(summary.seedProblems.length, 1);
      assert.equal(summary.seedProblems[0]!.seed, refused);
      assert.equal(summary.seedProblems[0]!.outcome, 'failed: connect-refused');

      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      try {
        const log = db.prepare('SELECT url, outcome, status, message, retries FROM CrawlLogEntry WHERE url LIKE ? ORDER BY id').all(`${refused}%`) as
          { url: string; outcome: string; status: number | null; message: string; retries: number }[];
        assert.equal(log.length, 1, JSON.stringify(log));
        assert.equal(log[0]!.url, refused);
        assert.equal(log[0]!.outcome, 'connect-refused');
        assert.equal(log[0]!.status, null);
        assert.match(log[0]!.message, /robots\.txt/);
        assert.match(log[0]!.message, /ECONNREFUSED/);
        // The ICD's default maxRetries (2): robots.txt was tried three times, the page not at all.
        assert.equal(log[0]!.retries, 2);
        const frontier = db.prepare('SELECT reason FROM frontier_url WHERE url = ?').pluck().get(refused);
        assert.equal(frontier, 'connect-refused');
        const live = db.prepare('SELECT url FROM Capture WHERE status = 200 ORDER BY url').pluck().all();
        assert.deepEqual(live, [`${origin}/`, `${origin}/robots.txt`]);
      } finally {
        db.close();
      }

      // The human summary names the failure and the seed.
      const human = await runCli(['crawl', '--seed', refused, '--seed', `${origin}/`, '--out', out]).done;
      assert.equal(human.code, 0, human.stderr.slice(-1000));
      assert.match(human.stdout, /failures: connect-refused 1/);
      assert.match(human.stdout, new RegExp(`seed ${refused.replace(/[.]/g, '\\.')}: failed: connect-refused\\n`));
      assert.doesNotMatch(human.stdout, /excluded:/);
    });
  });
});
