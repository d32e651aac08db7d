/**
 * A text sitemap (one URL per line), or an XML one, served with Content-Encoding: gzip whose data
 * is damaged midway: what decodes before the damage ends inside a line (a <loc>). The CLI crawl
 * queues only the whole lines (locations), never the cut one, and its crawl log says which last
 * line (value) it left out and why.
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

/** What the crawl of a damaged sitemap left: its entries, those queued (in document order) and its crawl-log message. */
interface DamagedSitemapCrawl {
  entries: string[];
  queued: string[];
  message: string | null;
}

/**
 * Serves `path` on loopback as `contentType`, Content-Encoding: gzip, its data damaged after the
 * first block (`document` of the server's origin: its text and the page URLs it lists, in order);
 * crawls it alone with the CLI (its links are queued, not fetched) and reads the crawl's database.
 */
async function crawlDamagedSitemap(path: string, contentType: string, document: (origin: string) => { text: string; entries: string[] }): Promise<DamagedSitemapCrawl> {
  let body: Buffer = Buffer.alloc(0);
  const server = createServer((req, res) => {
    if (req.url === path) res.writeHead(200, { 'content-type': contentType, 'content-encoding': 'gzip', 'content-length': body.length }).end(body);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not here</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { text, entries } = document(origin);
  body = gzipDamagedAfterFirstBlock(Buffer.from(text)).bytes;
  try {
    return await withTempDir('tm-damaged-sitemap-', async (out) => {
      const run = await runCli(['crawl', '--seed', `${origin}${path}`, '--out', out, '--no-politeness', '--max-pages', '1', '--json']).done;
      assert.equal(run.code, 0, run.stderr);
      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      try {
        const queued = sortByLine(db.prepare('SELECT url FROM frontier_url WHERE url LIKE ?').pluck().all(`${origin}/page-%`) as string[], entries);
        const message = db.prepare('SELECT message FROM CrawlLogEntry WHERE url = ?').pluck().get(`${origin}${path}`) as string | null;
        return { entries, queued, message };
      } finally {
        db.close();
      }
    });
  } finally {
    server.close();
  }
}

/** The text the crawl log quotes after `: "` (a JSON string). */
const quotedIn = (message: string) => JSON.parse(message.slice(message.indexOf(': "') + 2)) as string;

test('a gzip-encoded text sitemap damaged midway: its cut last line is not queued, and the crawl log says so', { timeout: 60_000 }, async () => {
  const { entries: lines, queued, message } = await crawlDamagedSitemap('/sitemap.txt', 'text/plain', (origin) => {
    const entries = Array.from({ length: 2000 }, (_, i) => `${origin}/page-${i}-${'x'.repeat(i % 37)}`);
    return { entries, text: entries.join('\n') + '\n' };
  });
  assert.ok(queued.length > 100 && queued.length < lines.length, `${queued.length} lines decoded before the damage`);
  const whole = new Set(lines);
  assert.deepEqual(queued.filter((u) => !whole.has(u)), [], 'no cut line queued');
  assert.deepEqual(queued, lines.slice(0, queued.length), 'the whole lines before the damage');
  const next = lines[queued.length]!;
  assert.match(message ?? '', /last line of the sitemap not followed, as the body was cut short or its content coding damaged: "/, 'the crawl log says a line was left out');
  const quoted = quotedIn(message!);
  assert.ok(quoted.length > 0 && next.startsWith(quoted) && quoted !== next, `the cut line is quoted: ${quoted}`);
});

test('a gzip-encoded XML sitemap damaged midway: its cut last <loc> is not queued, and the crawl log says so', { timeout: 60_000 }, async () => {
  const { entries: locs, queued, message } = await crawlDamagedSitemap('/sitemap.xml', 'application/xml', (origin) => {
    // Long locations: the damage falls inside one (the tags around them are a few percent of the bytes).
    const entries = Array.from({ length: 1000 }, (_, i) => `${origin}/page-${i}-${'x'.repeat(100 + (i % 37))}`);
    const urls = entries.map((l) => `<url><loc>${l}</loc></url>`).join('');
    return { entries, text: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>\n` };
  });
  assert.ok(queued.length > 100 && queued.length < locs.length, `${queued.length} locations decoded before the damage`);
  assert.deepEqual(queued, locs.slice(0, queued.length), 'the whole locations before the damage, none cut');
  const why = /last <loc> of the sitemap not followed, as the document ends inside it \(the body cut short, its content coding damaged or its closing tag missing\): "/;
  assert.match(message ?? '', why, 'the crawl log says a value was left out');
  const quoted = quotedIn(message!);
  const next = locs[queued.length]!;
  assert.ok(quoted.length > 0 && next.startsWith(quoted.replace(/…$/, '')) && quoted !== next, `the cut location is quoted: ${quoted}`);
});
