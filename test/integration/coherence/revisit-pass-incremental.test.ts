/**
 * A visit–revisit capture with recrawls (or feeds) goes on visiting after its revisit pass, so URLs
 * found during the pass are queued: a `Sitemap:` line robots.txt gains when read again for a
 * revisit, URLs posted to the API. They are visited right after the pass, in the same run, and
 * their pages are outside the coherence certificate, whose pages' visits and revisits bracket the
 * reference time. Before, a pass paused part-way was resumed only after those URLs were visited,
 * and it then revisited and certified their pages, visited after the reference time. Real parts: a
 * migrated SQLite database, engines run one after the other on it, a loopback site; the route
 * handler of POST /api/crawls/:id/urls over the cockpit's database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { CERTIFICATE_FILE } from '../../../worker/crawler/revisit-pass';
import type { CoherenceCertificate } from '../../../worker/coherence';
import { withSiteCrawl } from '../../support/site-crawl';
import { postedDuringPass, postingParts } from '../../support/posted-urls';

/** Every certified page's visit and revisit bracket the certificate's reference time. */
function assertBracketed(certificate: CoherenceCertificate): void {
  const reference = Date.parse(certificate.referenceTime);
  for (const p of certificate.unchanged) {
    assert.ok(Date.parse(p.visitedAt) <= reference && reference <= Date.parse(p.revisitedAt), `${p.url}: visited ${p.visitedAt}, revisited ${p.revisitedAt}, reference ${certificate.referenceTime}`);
  }
}

test('a Sitemap: line found during a revisit pass paused part-way is visited after the resumed pass, outside the certificate', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  let robots = 'User-agent: *\nDisallow:\n';
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    const nth = requested.filter((p) => p === path).length;
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
    if (path === '/late-sitemap.xml') {
      return void res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://${req.headers.host}/late</loc></url></urlset>`);
    }
    if (!['/', '/a', '/b', '/late'].includes(path)) return void res.writeHead(404).end();
    // From the first revisit on (a page's second request), robots.txt names a sitemap no page led to.
    if (path !== '/late' && nth === 2) robots = `User-agent: *\nDisallow:\nSitemap: http://${req.headers.host}/late-sitemap.xml\n`;
    const page = () => html(path === '/' ? '<a href="/a">a</a> <a href="/b">b</a>' : `<p>page ${path}</p>`);
    // The second revisit answers late: the crawl is paused meanwhile.
    const revisits = requested.filter((p, i) => p !== '/robots.txt' && requested.indexOf(p) < i).length;
    if (path !== '/late' && nth === 2 && revisits === 2) return void setTimeout(page, 2_000);
    page();
  };
  const fields = { name: 'Revisit, recrawls and a late sitemap', coherence: { mode: 'visit-revisit', recrawlIntervalMinutes: 10_000 }, politeness: { minDelayMs: 50, maxDelayMs: 100, concurrency: 1 } };
  await withSiteCrawl('tm-revisit-incremental-sitemap-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    // robots.txt is kept 20 ms, under the 50 ms the host's requests are apart: each revisit reads it again.
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), robotsMaxAgeMs: 20, haltGraceMs: 100 });
    const revisitsMade = () => requested.filter((p, i) => p !== '/robots.txt' && p !== '/late' && !p.endsWith('.xml') && requested.indexOf(p) < i).length;
    const first = engine();
    let run = first.run();
    for (const end = Date.now() + 20_000; revisitsMade() < 2 && Date.now() < end; ) await sleep(5);
    assert.equal(revisitsMade(), 2, `the second revisit was asked for: ${requested.join(' ')}`);
    await first.pause();
    assert.equal(await run, 'paused');
    assert.ok(!requested.includes('/late-sitemap.xml'), `nothing visited during the pass: ${requested.join(' ')}`);
    const queued = db.prepare('SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND url = ? AND state = 0').pluck().get(crawlId, `${origin}/late-sitemap.xml`);
    assert.equal(queued, 1, 'the sitemap robots.txt named during the pass is queued');

    const resumed = engine();
    run = resumed.run();
    const finished = () => db.prepare('SELECT finishedAt FROM CoherenceRun WHERE crawlId = ? AND finishedAt IS NOT NULL').get(crawlId) !== undefined;
    for (const end = Date.now() + 20_000; !(finished() && requested.includes('/late')) && Date.now() < end; ) await sleep(20);
    await resumed.stop();
    assert.equal(await run, 'stopped');
    assert.ok(finished(), 'the pass finished');
    assert.deepEqual(requested.filter((p) => p === '/late'), ['/late'], `the sitemap's page visited once, not revisited: ${requested.join(' ')}`);
    // The resumed pass came first: the sitemap and its page after the last revisit.
    const lastRevisit = Math.max(...['/', '/a', '/b'].map((p) => requested.lastIndexOf(p)));
    assert.ok(requested.indexOf('/late-sitemap.xml') > lastRevisit, `visited after the pass: ${requested.join(' ')}`);
    const certificate = JSON.parse(readFileSync(join(dir, 'warcs', CERTIFICATE_FILE), 'utf8')) as CoherenceCertificate;
    const listed = [...certificate.unchanged.map((p) => p.url), ...certificate.notCertified.map((p) => p.url)].sort();
    assert.deepEqual(listed, [`${origin}/`, `${origin}/a`, `${origin}/b`], 'the certificate lists the pages of the visit pass only');
    assertBracketed(certificate);
  });
});

const p = postingParts('tm-revisit-incremental-posted-');

test('a URL posted during the revisit pass of a crawl with recrawls is visited right after the pass, in the same run, outside the certificate', { timeout: 60_000 }, async () => {
  const { site, crawlId, engine, run } = await postedDuringPass(p);
  const { origin, requested } = site;
  try {
    const finished = () => p.worker.prepare('SELECT finishedAt FROM CoherenceRun WHERE crawlId = ? AND finishedAt IS NOT NULL').get(crawlId) !== undefined;
    for (const end = Date.now() + 20_000; !(finished() && requested.includes('/posted')) && Date.now() < end; ) await sleep(20);
    assert.ok(finished(), 'the pass finished');
    assert.deepEqual(requested.filter((path) => path === '/posted'), ['/posted'], `the posted URL visited once, in this run: ${requested.join(' ')}`);
    const lastRevisit = Math.max(...['/', '/a', '/b'].map((path) => requested.lastIndexOf(path)));
    assert.ok(requested.indexOf('/posted') > lastRevisit, `after the pass: ${requested.join(' ')}`);
    const certificate = JSON.parse(readFileSync(join(p.s.env.dataDir, `warcs-${crawlId}`, CERTIFICATE_FILE), 'utf8')) as CoherenceCertificate;
    assert.ok(![...certificate.unchanged, ...certificate.notCertified].some((c) => c.url === `${origin}/posted`), 'not in the certificate');
    assertBracketed(certificate);
  } finally {
    await engine.stop();
    await run;
    site.close();
  }
});
