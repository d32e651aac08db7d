/**
 * Each origin of a captured HTML page has its `/favicon.ico` fetched once, as a requisite: a browser
 * (and so Browsertrix) asks for it on every site whether or not a page names an icon, and a replay
 * in ReplayWeb.page asks for it too, so it answered 404 (found by a differential exploration of
 * Chromium live against the replay). robots.txt still decides; a 404 is archived as any answer and
 * fails nothing; the favicon is no page: not in the WACZ's pages.jsonl, even when a site answers
 * every path with HTML. An iframe's origin gets none (a browser asks for the page's only). The real
 * CLI on loopback sites (127.0.0.x, each an origin of its own).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { serveOn } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';
import { readZip } from '../../support/read-wacz';

/** A site that logs the paths asked of it and answers from `pages` (path → [type, body, status?]), else 404. */
function loggedSite(pages: (path: string) => [string, string, number?] | undefined): { requested: string[]; site: RequestListener } {
  const requested: string[] = [];
  const site: RequestListener = (req, res) => {
    requested.push(req.url!);
    const page = pages(req.url!);
    if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(page[2] ?? 200, { 'content-type': page[0] }).end(page[1]);
  };
  return { requested, site };
}

test('each origin of a captured page has its /favicon.ico fetched once, as a requisite, within robots.txt; a 404 fails nothing; none is a page', { timeout: 90_000 }, async () => {
  // The iframe's origin: its document is part of the page, and its icon no browser asks for.
  const frame = loggedSite((p) => (p === '/frame.html' ? ['text/html', '<title>Frame</title><p>framed'] : undefined));
  // A site answering every path with an HTML page, /favicon.ico included.
  const soft = loggedSite((p) => (p === '/robots.txt' ? undefined : ['text/html', `<title>Soft ${p}</title><p>anything`]));
  // A site whose robots.txt refuses its icon.
  const refusing = loggedSite((p) => (p === '/robots.txt' ? ['text/plain', 'User-agent: *\nDisallow: /favicon.ico'] : p === '/' ? ['text/html', '<title>Refusing</title>'] : undefined));
  const servers = await Promise.all([serveOn('127.0.0.2', frame.site), serveOn('127.0.0.3', soft.site), serveOn('127.0.0.4', refusing.site)]);
  const [frameOrigin, softOrigin, refusingOrigin] = servers.map((s) => s.origin);
  // The seed's site names no icon and answers 404 for it; its three pages share it.
  const home = loggedSite((p) => ({
    '/': ['text/html', `<title>Home</title><a href="/a">a</a><a href="/b">b</a><a href="${softOrigin}/">soft</a><a href="${refusingOrigin}/">refusing</a><iframe src="${frameOrigin}/frame.html"></iframe>`],
    '/a': ['text/html', '<title>A</title><p>a'],
    '/b': ['text/html', '<title>B</title><p>b'],
  } as Record<string, [string, string]>)[p]);
  const seedServer = await serveOn('127.0.0.1', home.site);
  try {
    await withTempDir('tm-favicon-', async (dir) => {
      const out = join(dir, 'out');
      const icd = join(dir, 'icd.json');
      const origins = [seedServer.origin, softOrigin, refusingOrigin];
      writeFileSync(icd, JSON.stringify({ name: 'favicons', seeds: [`${seedServer.origin}/`], politeness: { enabled: false }, scope: { allowedHosts: origins.map((o) => new URL(o).hostname) } }));
      const run = await runCli(['crawl', icd, '--out', out, '--json', '--wacz']).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      assert.equal(home.requested.filter((p) => p === '/favicon.ico').length, 1, 'asked once for its three pages');
      assert.equal(soft.requested.filter((p) => p === '/favicon.ico').length, 1);
      assert.ok(!refusing.requested.includes('/favicon.ico'), 'robots.txt refuses it');
      assert.ok(!frame.requested.includes('/favicon.ico'), 'an iframe\'s origin has none asked');

      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      try {
        const row = db.prepare('SELECT kind, state, status, reason FROM frontier_url WHERE url = ?');
        assert.deepEqual(row.get(`${seedServer.origin}/favicon.ico`), { kind: 'requisite', state: 2, status: 404, reason: null }, 'a 404 is a fetch done');
        assert.deepEqual(row.get(`${softOrigin}/favicon.ico`), { kind: 'requisite', state: 2, status: 200, reason: null });
        assert.equal((row.get(`${refusingOrigin}/favicon.ico`) as { reason: string }).reason, 'robots-disallowed', 'refused by robots.txt');
        const outcome = db.prepare("SELECT outcome FROM CrawlLogEntry WHERE url = ?").pluck();
        assert.equal(outcome.get(`${seedServer.origin}/favicon.ico`), 'ok', 'its 404 is no failure');
      } finally {
        db.close();
      }
      const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { failures: number };
      assert.equal(summary.failures, 0, 'nothing failed');

      const archived = readFileSync(join(out, 'index.cdxj'), 'utf8').trim().split('\n').map((line) => JSON.parse(line.slice(line.indexOf('{'))) as { url: string; status: string });
      assert.equal(archived.find((c) => c.url === `${seedServer.origin}/favicon.ico`)?.status, '404', 'its 404 archived, for the replay to answer');
      const entries = await readZip(readFileSync(join(out, 'crawl.wacz')));
      const [, ...lines] = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
      const listed = lines.map((l) => (JSON.parse(l) as { url: string }).url);
      assert.ok(listed.includes(`${softOrigin}/`), 'the soft site\'s page is listed');
      assert.deepEqual(listed.filter((u) => u.endsWith('/favicon.ico')), [], 'no favicon is a page, not even one answered with HTML');
    });
  } finally {
    for (const s of [...servers, seedServer]) s.close();
  }
});

// A carry-over of the differential exploration: the icon was asked only after a 2xx HTML page of its
// origin, where a browser asks for it for any HTML document it renders, a custom 404 or 503 page too
// (and a replay of that archived page asks for it). An origin that only redirects renders nothing, so
// neither asks for its icon; an error answered without HTML (a plain-text 404, an empty 500) shows the
// browser's own error page, which asks for none.
test("an origin whose only HTML page is an error page (404, 503) has its /favicon.ico fetched; one that only redirects, or errs without HTML, has none", { timeout: 90_000 }, async () => {
  const notFound = loggedSite((p) => (p === '/gone' ? ['text/html', '<title>Not here</title><p>This page has moved on.', 404] : undefined));
  const unavailable = loggedSite((p) => (p === '/busy' ? ['text/html', '<title>Back soon</title><p>Maintenance.', 503] : undefined));
  const plain = loggedSite(() => undefined);
  const empty = loggedSite((p) => (p === '/empty' ? ['text/html', '', 500] : undefined));
  const servers = await Promise.all([notFound.site, unavailable.site, plain.site, empty.site].map((site, i) => serveOn(`127.0.0.${i + 2}`, site)));
  const [notFoundOrigin, unavailableOrigin, plainOrigin, emptyOrigin] = servers.map((s) => s.origin);
  const movingRequested: string[] = [];
  const moving: RequestListener = (req, res) => {
    movingRequested.push(req.url!);
    res.writeHead(req.url === '/robots.txt' ? 404 : 301, { location: `${notFoundOrigin}/gone` }).end();
  };
  const redirecting = await serveOn('127.0.0.6', moving);
  const home = loggedSite((p) => (p === '/' ? ['text/html', `<title>Home</title>${[`${notFoundOrigin}/gone`, `${unavailableOrigin}/busy`, `${plainOrigin}/missing`, `${emptyOrigin}/empty`, `${redirecting.origin}/moved`].map((u) => `<a href="${u}">x</a>`).join('')}`] : undefined));
  const seedServer = await serveOn('127.0.0.1', home.site);
  try {
    await withTempDir('tm-favicon-errors-', async (dir) => {
      const out = join(dir, 'out');
      const icd = join(dir, 'icd.json');
      const hosts = [seedServer, ...servers, redirecting].map((s) => new URL(s.origin).hostname);
      writeFileSync(icd, JSON.stringify({ name: 'favicons of error pages', seeds: [`${seedServer.origin}/`], politeness: { enabled: false }, limits: { maxRetries: 0 }, scope: { allowedHosts: hosts } }));
      const run = await runCli(['crawl', icd, '--out', out, '--json']).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      const icons = (requested: string[]) => requested.filter((p) => p === '/favicon.ico').length;
      assert.equal(icons(notFound.requested), 1, 'a custom 404 page renders, and asks for its icon');
      assert.equal(icons(unavailable.requested), 1, 'so does a custom 503 page');
      assert.equal(icons(plain.requested), 0, 'a plain-text 404 shows the browser\'s own error page');
      assert.equal(icons(empty.requested), 0, 'so does an empty 500');
      assert.equal(icons(movingRequested), 0, 'a redirect renders nothing');
      assert.ok(movingRequested.includes('/moved'), 'the redirect was fetched');
    });
  } finally {
    for (const s of [...servers, redirecting, seedServer]) s.close();
  }
});
