/**
 * A site that writes a fresh session id into every link it serves (Tomcat's `;jsessionid=` in the
 * path, PHP's `PHPSESSID=` in the query) offers each page under endless URLs. The seen-set knows a
 * URL without its session ids (frontier/url-hash.ts seenKey), so the crawl ends by itself with each
 * page fetched and captured once, under the URL it was first found as; the later URLs are never
 * queued. The real CLI on a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';
import { withoutSessionIds } from '../../../worker/url';

const PAGES = ['/', '/a', '/b', '/list?page=2'];

/**
 * The site: each page links to every page, each link with the session `withSession` writes in it,
 * fresh for each answer (a visitor without the cookie); `/old` redirects to `/a` with one too.
 * `requested` counts the requests of each path without its session id.
 */
function sessionSite(withSession: (path: string, session: string) => string): { requested: Map<string, number>; site: RequestListener } {
  const requested = new Map<string, number>();
  const site: RequestListener = (req, res) => {
    const { pathname, search } = new URL(withoutSessionIds(`http://site${req.url}`));
    const path = pathname + search;
    requested.set(path, (requested.get(path) ?? 0) + 1);
    const session = randomBytes(16).toString('hex').toUpperCase();
    if (path === '/old') return void res.writeHead(302, { location: withSession('/a', session) }).end();
    if (!PAGES.includes(path)) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const links = [...PAGES, '/old'].map((p) => `<a href="${withSession(p, session)}">${p}</a>`).join(' ');
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${path}</title>${links}`);
  };
  return { requested, site };
}

async function crawlOnce(name: string, withSession: (path: string, session: string) => string): Promise<void> {
  const { requested, site } = sessionSite(withSession);
  await withSite(site, async (origin) => {
    await withTempDir('tm-session-ids-', async (dir) => {
      const out = join(dir, 'out');
      const icd = join(dir, 'icd.json');
      writeFileSync(icd, JSON.stringify({ name, seeds: [`${origin}/`], politeness: { enabled: false }, scope: { includeFavicon: false } }));
      const run = await runCli(['crawl', icd, '--out', out, '--json']).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));

      for (const path of [...PAGES, '/old']) assert.equal(requested.get(path), 1, `${path} fetched once`);
      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      try {
        const captured = (db.prepare('SELECT url FROM Capture').pluck().all() as string[]).map(withoutSessionIds);
        assert.deepEqual(captured.sort(), [...PAGES, '/old', '/robots.txt'].map((p) => `${origin}${p}`).sort(), 'each page captured once');
        const rows = db.prepare("SELECT url, state FROM frontier_url WHERE url NOT LIKE '%/robots.txt'").all() as { url: string; state: number }[];
        assert.equal(rows.length, PAGES.length + 1, 'one row a page: the later URLs were never queued');
        assert.ok(rows.every((r) => r.state === 2), 'every page fetched');
        const sessionUrls = rows.filter((r) => r.url !== withoutSessionIds(r.url));
        assert.equal(sessionUrls.length, PAGES.length, 'each page but the seed kept as first found, with its session id');
      } finally {
        db.close();
      }
    });
  });
}

test("a Tomcat-style site's fresh `;jsessionid=` in every link: each page fetched and captured once, the crawl ends by itself", { timeout: 90_000 }, async () => {
  await crawlOnce('jsessionid', (path, session) => {
    const q = path.indexOf('?');
    return q < 0 ? `${path};jsessionid=${session}` : `${path.slice(0, q)};jsessionid=${session}${path.slice(q)}`;
  });
});

test("a PHP site's fresh `PHPSESSID=` in every link: each page fetched and captured once, the crawl ends by itself", { timeout: 90_000 }, async () => {
  await crawlOnce('phpsessid', (path, session) => `${path}${path.includes('?') ? '&' : '?'}PHPSESSID=${session.toLowerCase()}`);
});
