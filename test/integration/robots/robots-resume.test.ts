import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { countedSite } from '../../support/counted-site';
import { serveLoopback } from '../../support/loopback-site';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';

/**
 * Issue 3: robots.txt is fetched once per host per crawl, not once per run. A crawl stopped part-way
 * (its page limit) and run again with the same --out answers from the robots.txt its first run read
 * while that answer is fresh (a day, RFC 9309 §2.4), and fetches it again once it is not.
 */

const PAGES = Array.from({ length: 8 }, (_, i) => `/p${i + 1}`);

/** `/` links to eight pages and a page robots.txt disallows; robots.txt names a sitemap listing one more page. */
function siteWithRules() {
  return countedSite((path, _nth, _req, res) => {
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n\nSitemap: /sitemap.xml\n');
    if (path === '/') return void html([...PAGES, '/private/secret'].map((p) => `<a href="${p}">${p}</a>`).join(' '));
    if (PAGES.includes(path) || path === '/from-sitemap') return void html(`<p>page ${path}</p>`);
    if (path === '/sitemap.xml') {
      const origin = `http://${_req.headers.host}`;
      return void res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/from-sitemap</loc></url></urlset>`);
    }
    res.writeHead(404).end();
  });
}

async function crawl(origin: string, out: string, maxPages: number, env?: Record<string, string>): Promise<{ endedBy?: string; outcome: string }> {
  const run = await runCli(['crawl', '--seed', `${origin}/`, '--out', out, '--no-politeness', '--max-pages', String(maxPages), '--json'], { env }).done;
  assert.equal(run.code, 0, run.stderr.slice(-1000));
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { endedBy?: string; outcome: string };
}

/** The crawl-log outcome of `url` in the crawl's state (null: none). */
function loggedOutcome(out: string, url: string): string | null {
  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  try {
    return (db.prepare('SELECT outcome FROM CrawlLogEntry WHERE url = ?').pluck().get(url) as string | undefined) ?? null;
  } finally {
    db.close();
  }
}

test('a crawl stopped by its page limit and run again requests robots.txt once in all, and its rules still refuse what they refused', { timeout: 120_000 }, async () => {
  const site = siteWithRules();
  const origin = await serveLoopback(site.listener);
  await withTempDir('tm-robots-resume-', async (out) => {
    const first = await crawl(origin, out, 2);
    assert.equal(first.endedBy, 'page-limit', 'stopped part-way, URLs left');
    assert.equal(site.requests.get('/robots.txt'), 1);

    const second = await crawl(origin, out, 1000);
    assert.equal(second.outcome, 'finished');
    assert.equal(second.endedBy, undefined);
    for (const page of [...PAGES, '/from-sitemap']) assert.equal(site.requests.get(page), 1, `${page} fetched once`);
    // Fetched (and archived) again by each run before: the resumed run answered from the kept rules.
    assert.equal(site.requests.get('/robots.txt'), 1, 'robots.txt requested once over both runs');
    // The rules rebuilt from what was kept: the disallowed page is refused, not requested.
    assert.equal(site.requests.get('/private/secret'), undefined);
    assert.equal(loggedOutcome(out, `${origin}/private/secret`), 'robots');
    // Its Sitemap: line was queued by the first run and is neither lost nor queued again.
    assert.equal(site.requests.get('/sitemap.xml'), 1);
  });
});

test('a crawl run again a day later fetches robots.txt again, and queues no sitemap twice', { timeout: 120_000 }, async () => {
  const site = siteWithRules();
  const origin = await serveLoopback(site.listener);
  await withTempDir('tm-robots-stale-', async (out) => {
    const first = await crawl(origin, out, 2);
    assert.equal(first.endedBy, 'page-limit');
    assert.equal(site.requests.get('/robots.txt'), 1);
    // The second run's wall clock reads 25 hours on (as a crawl resumed the next day): what robots.txt
    // answered is older than its day (RFC 9309 §2.4).
    const clock = join(out, 'clock-ahead.cjs');
    writeFileSync(clock, 'const systemNow = Date.now; Date.now = () => systemNow() + 25 * 3600 * 1000;\n');
    const second = await crawl(origin, out, 1000, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${clock}`.trim() });
    assert.equal(second.outcome, 'finished');
    assert.equal(site.requests.get('/robots.txt'), 2, 'fetched again once it was stale, once');
    assert.equal(site.requests.get('/private/secret'), undefined);
    // Read again, its Sitemap: line names a sitemap the crawl knows: not fetched a second time.
    assert.equal(site.requests.get('/sitemap.xml'), 1);
    assert.equal(site.requests.get('/from-sitemap'), 1);
  });
});
