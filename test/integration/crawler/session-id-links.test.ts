/**
 * A site that writes a fresh session id into every link it serves (Tomcat's `;jsessionid=` in the
 * path, PHP's `PHPSESSID=` in the query) offers each page under endless URLs. The seen-set knows a
 * URL without its session ids (frontier/url-hash.ts seenKey), so the crawl ends by itself with each
 * page fetched and captured once, under the URL it was first found as; the later URLs are never
 * queued. The real CLI on a loopback site.
 * One page linking the same targets under many session ids plans each target once (the first link
 * as written), while its metadata record lists every link as found.
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
import { captureOutlinksReader } from '../../../worker/warc/read-outlinks';

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

test('a page linking the same targets under 50 session ids plans each once: no query variant counted for the others; its metadata record lists every link as found', { timeout: 90_000 }, async () => {
  const sessions = Array.from({ length: 50 }, (_, i) => randomBytes(16).toString('hex').toUpperCase() + String(i));
  const requested: string[] = [];
  const site: RequestListener = (req, res) => {
    requested.push(req.url ?? '/');
    const path = withoutSessionIds(`http://site${req.url}`).slice('http://site'.length);
    if (path !== '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${path}</title>`);
    const links = [
      ...sessions.map((s) => `<a href="/a;jsessionid=${s}">a</a>`),
      ...sessions.map((s) => `<a href="/list?page=1&amp;PHPSESSID=${s.toLowerCase()}">1</a>`),
      '<a href="/list?page=2">2</a>',
      '<a href="/list?page=3">3</a>',
    ];
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>home</title>${links.join(' ')}`);
  };
  await withSite(site, async (origin) => {
    await withTempDir('tm-session-ids-page-', async (dir) => {
      const out = join(dir, 'out');
      const icd = join(dir, 'icd.json');
      // At most three query variants of a path: fifty sessions of ?page=1 would be 50 of /list's.
      writeFileSync(icd, JSON.stringify({ name: 'one page, many sessions', seeds: [`${origin}/`], politeness: { enabled: false }, scope: { includeFavicon: false, maxQueryVariantsPerPath: 3 } }));
      const run = await runCli(['crawl', icd, '--out', out, '--json']).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));

      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      try {
        const rows = db.prepare("SELECT url, state, reason FROM frontier_url WHERE url NOT LIKE '%/robots.txt' ORDER BY seq").all() as { url: string; state: number; reason: string | null }[];
        assert.deepEqual(rows.map((r) => [r.url.slice(origin.length), r.state, r.reason]), [
          ['/', 2, null],
          [`/a;jsessionid=${sessions[0]}`, 2, null],
          [`/list?page=1&PHPSESSID=${sessions[0]!.toLowerCase()}`, 2, null],
          ['/list?page=2', 2, null],
          ['/list?page=3', 2, null],
        ], 'each target once, as first written; ?page=2 and ?page=3 fetched, not taken for a trap');
        assert.deepEqual(requested.filter((p) => p !== '/robots.txt').length, 5);
        const home = db.prepare('SELECT warcFile, warcOffset, warcLength, warcRecordId FROM Capture WHERE url = ?').get(`${origin}/`) as { warcFile: string; warcOffset: number; warcLength: number; warcRecordId: string };
        const reader = captureOutlinksReader(out);
        try {
          const outlinks = await reader.read(home.warcFile, home.warcOffset, home.warcLength, home.warcRecordId);
          assert.equal(outlinks.length, 102, 'every link as found, session ids and all');
          assert.deepEqual(outlinks.slice(0, 2).map((l) => l.url.slice(origin.length)), sessions.slice(0, 2).map((s) => `/a;jsessionid=${s}`));
        } finally {
          await reader.close();
        }
      } finally {
        db.close();
      }
    });
  });
});
