/**
 * What a site's robots.txt declares, as a CLI crawl takes it: the sitemaps its `Sitemap:` lines
 * name are read whatever their names and types, its rules written with escapes are obeyed, and only
 * the root's robots.txt is one (a page named so elsewhere is crawled as a page).
 *
 * Real parts: the CLI as a child process, a loopback HTTP server, the crawl's SQLite database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

const urlset = (...urls: string[]) => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`;

/** The site: robots.txt names three sitemaps none of which says "sitemap", and refuses /~joe/ as `/%7Ejoe/`. */
function declaringSite(requested: string[]) {
  let origin = '';
  const pages: Record<string, { type: string; body: () => string | Buffer }> = {
    '/robots.txt': { type: 'text/plain', body: () => `User-agent: *\nDisallow: /%7Ejoe/\nSitemap: ${origin}/maps/pages.xml.gz\nSitemap: ${origin}/prolog.xml\nSitemap: ${origin}/urls.txt\n` },
    '/': { type: 'text/html', body: () => '<a href="/wiki/Robots.txt">robots.txt, the article</a> <a href="/%7Ejoe/secret.html">joe</a>' },
    // Gzipped, served as application/gzip.
    '/maps/pages.xml.gz': { type: 'application/gzip', body: () => gzipSync(urlset(`${origin}/from-gz`)) },
    // Its <urlset> after 2 KB of licence comment.
    '/prolog.xml': { type: 'application/xml', body: () => `<?xml version="1.0"?>\n<!--\n${'Licence text, line after line.\n'.repeat(70)}-->\n${urlset(`${origin}/from-prolog`)}` },
    '/urls.txt': { type: 'text/plain', body: () => `${origin}/from-txt\n` },
    '/wiki/Robots.txt': { type: 'text/html', body: () => '<title>robots.txt - the article</title><link rel="stylesheet" href="/w/style.css"><a href="/wiki/Web_crawler">crawlers</a>' },
  };
  return {
    setOrigin: (o: string) => (origin = o),
    handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      requested.push(req.url!);
      const page = pages[req.url!];
      if (page) res.writeHead(200, { 'content-type': page.type }).end(page.body());
      else res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${req.url}</p>`);
    },
  };
}

test('sitemaps named in robots.txt are read whatever their names, /%7Ejoe/ refuses /~joe/, and /wiki/Robots.txt is a page', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  const site = declaringSite(requested);
  await withSite(site.handler, async (origin) => {
    site.setOrigin(origin);
    await withTempDir('tm-robots-declarations-', async (out) => {
      const run = await runCli(['crawl', '--seed', `${origin}/`, '--out', out, '--no-politeness', '--json']).done;
      assert.equal(run.code, 0, run.stderr);
      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      try {
        const stateOf = (path: string) => db.prepare('SELECT state, reason FROM frontier_url WHERE url = ?').get(`${origin}${path}`) as { state: number; reason: string | null } | undefined;
        // Before: the three sitemaps were fetched, and none of their pages queued.
        for (const path of ['/from-gz', '/from-prolog', '/from-txt']) assert.equal(stateOf(path)?.state, 2, `${path}, listed in a sitemap, captured`);
        // Before: canonicalised to /~joe/…, it matched no rule and was fetched.
        assert.deepEqual(stateOf('/~joe/secret.html'), { state: 3, reason: 'robots-disallowed' });
        assert.ok(!requested.some((p) => /joe/i.test(p)), `never requested: ${requested.join(' ')}`);
        // Before: read as robots.txt, with no title and none of its links followed.
        const article = db.prepare('SELECT title FROM Capture WHERE url = ?').pluck().get(`${origin}/wiki/Robots.txt`);
        assert.equal(article, 'robots.txt - the article');
        for (const path of ['/wiki/Web_crawler', '/w/style.css']) assert.equal(stateOf(path)?.state, 2, `${path}, linked from /wiki/Robots.txt, captured`);
      } finally {
        db.close();
      }
    });
  });
});
