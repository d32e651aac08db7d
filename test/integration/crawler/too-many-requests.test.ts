/**
 * A page answered 429 Too Many Requests is asked again after the server's Retry-After, as a 5xx is:
 * it was kept as the page's capture at once, the page itself never archived, and the host's next
 * request went out after the politeness delay alone. Real parts: the CLI, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

test('a page answered 429 is fetched again after its Retry-After, and its 200 is the capture', { timeout: 60_000 }, async () => {
  const requests: { path: string; at: number }[] = [];
  let asked = 0;
  const site: RequestListener = (req, res) => {
    requests.push({ path: req.url ?? '', at: Date.now() });
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (req.url === '/busy' && asked++ === 0) return void res.writeHead(429, { 'retry-after': '2', 'content-type': 'text/plain' }).end('slow down');
    res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/' ? '<a href="/busy">busy</a>' : '<p>the page itself</p>');
  };
  await withSite(site, (origin) => withTempDir('tm-429-', async (out) => {
    const run = await runCli(['crawl', '--seed', `${origin}/`, '--out', out, '--no-politeness', '--json']).done;
    assert.equal(run.code, 0, run.stderr.slice(-1000));
    const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
    const captures = db.prepare("SELECT status FROM Capture WHERE url = ?").pluck().all(`${origin}/busy`);
    db.close();
    assert.deepEqual(captures, [200], 'the page, not the 429');
    const busy = requests.filter((r) => r.path === '/busy');
    assert.equal(busy.length, 2);
    // Retry-After: 2 asks for two seconds; the fetch's own backoff would have waited under one.
    assert.ok(busy[1]!.at - busy[0]!.at >= 1900, `asked again ${busy[1]!.at - busy[0]!.at} ms later`);
    const log = readFileSync(join(out, 'crawl-log.tsv'), 'utf8');
    assert.match(log, new RegExp(`\\t200\\tok\\t\\d+\\t\\d+\\t1\\t${origin}/busy\\t`), 'logged ok with one retry');
  }));
});
