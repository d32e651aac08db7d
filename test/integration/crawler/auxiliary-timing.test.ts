/**
 * The captures a crawl makes beside its pages (robots.txt here; feed polls, revisits and recrawl
 * refetches go through the same commit) log how long their fetch took and how often it was tried
 * again, as a page's do: they logged 0 ms and no retry whatever the server did.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

const ROBOTS_DELAY_MS = 400;

test('a slow robots.txt is logged and stored with its fetch\'s duration, and one answered after a 503 with its retry', { timeout: 60_000 }, async () => {
  let robotsAsked = 0;
  await withSite((req, res) => {
    if (req.url === '/robots.txt') {
      // Its first request answers 503 at once (retried by the fetcher), the second only after a while.
      if (++robotsAsked === 1) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
      return void setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n'), ROBOTS_DELAY_MS);
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>the harbour</p>');
  }, (origin) => withTempDir('tm-aux-timing-', async (out) => {
    const run = await runCli(['crawl', '--seed', `${origin}/`, '--out', out, '--json', '--no-politeness']).done;
    assert.equal(run.code, 0, run.stderr);
    const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
    try {
      const entry = db.prepare("SELECT status, durationMs, retries FROM CrawlLogEntry WHERE url = ?").get(`${origin}/robots.txt`) as { status: number; durationMs: number; retries: number };
      assert.equal(entry.status, 200);
      assert.equal(entry.retries, 1, 'the 503 before it');
      assert.ok(entry.durationMs >= ROBOTS_DELAY_MS, `the log entry's duration, ${entry.durationMs} ms, includes the server's ${ROBOTS_DELAY_MS} ms`);
      const capture = db.prepare('SELECT durationMs FROM Capture WHERE url = ?').get(`${origin}/robots.txt`) as { durationMs: number };
      assert.equal(capture.durationMs, entry.durationMs, 'the capture row has it too');
    } finally {
      db.close();
    }
  }));
});
