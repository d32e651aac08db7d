/**
 * A text sitemap (one URL per line) served with Content-Encoding: gzip whose data is damaged
 * midway: what decodes before the damage ends inside a line. The CLI crawl queues only the whole
 * lines, never the cut one, and its crawl log says which last line it left out and why.
 *
 * Real parts: the CLI as a child process, a loopback HTTP server, the crawl's SQLite database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';
import { gzipDamagedAfterFirstBlock } from '../../support/damaged-gzip';

/** `urls` in the order of `lines` (those not among them last). */
const sortByLine = (urls: string[], lines: string[]) => {
  const at = new Map(lines.map((l, i) => [l, i]));
  return [...urls].sort((a, b) => (at.get(a) ?? Infinity) - (at.get(b) ?? Infinity));
};

test('a gzip-encoded text sitemap damaged midway: its cut last line is not queued, and the crawl log says so', { timeout: 60_000 }, async () => {
  let body: Buffer = Buffer.alloc(0);
  const server = createServer((req, res) => {
    if (req.url === '/sitemap.txt') res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': body.length }).end(body);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not here</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const lines = Array.from({ length: 2000 }, (_, i) => `${origin}/page-${i}-${'x'.repeat(i % 37)}`);
  const damaged = gzipDamagedAfterFirstBlock(Buffer.from(lines.join('\n') + '\n'));
  body = damaged.bytes;
  try {
    await withTempDir('tm-damaged-sitemap-', async (out) => {
      // One page: the sitemap; its links are queued, not fetched.
      const run = await runCli(['crawl', '--seed', `${origin}/sitemap.txt`, '--out', out, '--no-politeness', '--max-pages', '1', '--json']).done;
      assert.equal(run.code, 0, run.stderr);
      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      try {
        const queued = sortByLine(db.prepare('SELECT url FROM frontier_url WHERE url LIKE ?').pluck().all(`${origin}/page-%`) as string[], lines);
        assert.ok(queued.length > 100 && queued.length < lines.length, `${queued.length} lines decoded before the damage`);
        const whole = new Set(lines);
        assert.deepEqual(queued.filter((u) => !whole.has(u)), [], 'no cut line queued');
        assert.deepEqual(queued, lines.slice(0, queued.length), 'the whole lines before the damage');
        const message = db.prepare('SELECT message FROM CrawlLogEntry WHERE url = ?').pluck().get(`${origin}/sitemap.txt`) as string | null;
        const next = lines[queued.length]!;
        assert.match(message ?? '', /last line of the sitemap not followed, as the body was cut short or its content coding damaged: "/, 'the crawl log says a line was left out');
        const quoted = JSON.parse(message!.slice(message!.indexOf(': "') + 2)) as string;
        assert.ok(quoted.length > 0 && next.startsWith(quoted) && quoted !== next, `the cut line is quoted: ${quoted}`);
      } finally {
        db.close();
      }
    });
  } finally {
    server.close();
  }
});
