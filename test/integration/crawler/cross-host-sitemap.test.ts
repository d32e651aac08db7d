/**
 * sitemaps.org's cross-submission: a seed's robots.txt may name a sitemap on another host, which
 * lists the seed site's pages (a sitemap host, a CDN). It was refused as out of scope, and the
 * pages only it lists were never found. A requisite host's own sitemaps are still not read.
 * Real parts: the CLI as a child process, loopback sites on 127.0.0.2–127.0.0.4, its SQLite database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { startLoggedSite } from '../../support/logged-site';
import { withTempDir } from '../../support/temp-dir';

const urlset = (...urls: string[]) => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`;
const index = (...urls: string[]) => `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<sitemap><loc>${u}</loc></sitemap>`).join('')}</sitemapindex>`;

test('a sitemap a seed\'s robots.txt names on another host is read, and the seed site\'s pages it lists are crawled', { timeout: 60_000 }, async () => {
  const origins: Record<string, string> = {};
  const maps = await startLoggedSite({
    ip: '127.0.0.3', latencyMs: 0,
    answer: (path) =>
      path === '/robots.txt' ? { status: 404 }
      : path === '/index.xml' ? { status: 200, type: 'application/xml', body: index(`${origins.maps}/part-1.xml`) }
      : path === '/part-1.xml' ? { status: 200, type: 'application/xml', body: urlset(`${origins.site}/only-in-the-sitemap`, `${origins.maps}/not-the-crawls`) }
      : { status: 200, body: '<p>a page of the sitemap host</p>' },
  });
  // A requisite's host: its own robots.txt names its own sitemap, none of the crawl's business.
  const cdn = await startLoggedSite({
    ip: '127.0.0.4', latencyMs: 0,
    answer: (path) =>
      path === '/robots.txt' ? { status: 200, type: 'text/plain', body: `Sitemap: ${origins.cdn}/cdn-sitemap.xml\n` }
      : path === '/cdn-sitemap.xml' ? { status: 200, type: 'application/xml', body: urlset(`${origins.cdn}/asset-list`) }
      : { status: 200, type: 'image/png', body: 'png' },
  });
  const site = await startLoggedSite({
    ip: '127.0.0.2', latencyMs: 0,
    answer: (path) =>
      path === '/robots.txt' ? { status: 200, type: 'text/plain', body: `Sitemap: ${origins.maps}/index.xml\n` }
      : path === '/' ? { status: 200, body: `<img src="${origins.cdn}/logo.png"><a href="/linked">linked</a>` }
      : { status: 200, body: `<p>${path}</p>` },
  });
  Object.assign(origins, { site: site.origin, maps: maps.origin, cdn: cdn.origin });
  try {
    await withTempDir('tm-cross-sitemap-', async (out) => {
      const run = await runCli(['crawl', '--seed', `${site.origin}/`, '--out', out, '--no-politeness', '--json']).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      const captured = db.prepare('SELECT url FROM Capture ORDER BY url').pluck().all() as string[];
      const refused = db.prepare('SELECT url, reason FROM frontier_url WHERE state = 4 ORDER BY url').all() as { url: string; reason: string }[];
      db.close();
      assert.ok(captured.includes(`${site.origin}/only-in-the-sitemap`), `the page only the sitemap lists: ${captured.join(' ')}`);
      assert.ok(captured.includes(`${maps.origin}/index.xml`) && captured.includes(`${maps.origin}/part-1.xml`), 'the index and the sitemap it lists, archived');
      // The sitemap host's own pages are judged as any: out of scope.
      assert.deepEqual(refused.filter((r) => r.url.startsWith(maps.origin)), [{ url: `${maps.origin}/not-the-crawls`, reason: 'out-of-scope-host' }]);
      assert.ok(captured.includes(`${cdn.origin}/logo.png`), 'the requisite');
      assert.deepEqual(cdn.log.map((r) => r.path).filter((p) => p !== '/robots.txt'), ['/logo.png'], 'the requisite host\'s own sitemap is not read');
    });
  } finally {
    site.close();
    maps.close();
    cdn.close();
  }
});
