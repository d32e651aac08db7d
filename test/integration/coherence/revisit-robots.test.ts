/**
 * The revisit pass of a visit–revisit capture asks robots.txt before fetching a page again, as
 * recrawl rounds and feed polls do: a page robots.txt has come to disallow is not requested, and
 * since it was not revisited it cannot be proved unchanged. An unreachable robots.txt is tried
 * again, as for the visit pass, and then counts as disallowing everything. Real parts: a migrated
 * SQLite database, the engine (robots.txt answers kept briefly, its retries shortened), a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { CERTIFICATE_FILE } from '../../../worker/crawler/revisit-pass';
import type { CoherenceCertificate } from '../../../worker/coherence';
import { withSiteCrawl } from '../../support/site-crawl';
import { robotsSite } from '../../support/robots-site';

test('the revisit pass does not request a page robots.txt came to disallow after its visit; the page is missing, not certified', { timeout: 60_000 }, async () => {
  // The visit of /b is the last request the old rules answer for.
  const site = robotsSite({
    onRequest: (path) => {
      if (path === '/b') site.robots = 'User-agent: *\nDisallow: /b\n';
    },
  });
  const { requested } = site;
  const fields = { name: 'Revisit and robots', coherence: { mode: 'visit-revisit' }, politeness: { minDelayMs: 50, maxDelayMs: 100, concurrency: 1 } };
  await withSiteCrawl('tm-revisit-robots-', site.listener, fields, async ({ origin, dir, db, icd, crawlId }) => {
    // robots.txt is kept 20 ms, under the 50 ms the host's requests are apart: each revisit reads it again.
    const warcDir = join(dir, 'warcs');
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool'), robotsMaxAgeMs: 20 });
    assert.equal(await engine.run(), 'finished');

    assert.deepEqual(requested.filter((p) => p === '/b'), ['/b'], `/b was visited, never revisited: ${requested.join(' ')}`);
    assert.deepEqual(requested.filter((p) => p === '/a'), ['/a', '/a'], `/a was visited and revisited: ${requested.join(' ')}`);
    const afterB = requested.slice(requested.indexOf('/b') + 1);
    assert.ok(afterB.includes('/robots.txt'), `robots.txt was read again after the visit of /b: ${requested.join(' ')}`);

    const page = (url: string) => db.prepare('SELECT status, evidence, revisitedAt, revisit, changeRate FROM CoherencePage WHERE crawlId = ? AND url = ?').get(crawlId, url) as
      { status: string; evidence: string; revisitedAt: string | null; revisit: string | null; changeRate: number | null };
    const b = page(`${origin}/b`);
    assert.equal(b.status, 'missing');
    assert.equal(b.evidence, 'robots-disallowed');
    assert.ok(b.revisitedAt !== null, 'the page is done: a resumed pass does not ask again');
    assert.equal(b.revisit, null, 'no revisit fingerprint');
    assert.equal(b.changeRate, null, 'no change rate: nothing was observed');
    assert.equal(page(`${origin}/a`).status, 'unchanged');

    const log = db.prepare('SELECT outcome, status, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, `${origin}/b`) as { outcome: string; status: number | null; message: string | null }[];
    assert.deepEqual(log.map((l) => l.outcome), ['ok', 'robots']);
    assert.equal(log[1]!.status, null);
    assert.match(log[1]!.message ?? '', /revisit.*robots\.txt/);
    const captures = db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, `${origin}/b`);
    assert.equal(captures, 1, 'only the visit of /b is archived');

    const certificate = JSON.parse(readFileSync(join(warcDir, CERTIFICATE_FILE), 'utf8')) as CoherenceCertificate;
    assert.deepEqual(certificate.unchanged.map((p) => p.url), [`${origin}/`, `${origin}/a`]);
    assert.deepEqual(certificate.notCertified, [{ url: `${origin}/b`, status: 'missing', evidence: 'robots-disallowed' }]);
    assert.deepEqual(certificate.summary.byStatus, { unchanged: 2, 'content-changed': 0, 'links-changed': 0, missing: 1 });
  });
});

test('a resumed revisit pass finding robots.txt unreachable tries it again, leaves the pages to a pause meanwhile, then records them missing unrequested', { timeout: 90_000 }, async () => {
  let slowRevisits = true;
  // A page's second request is its revisit: held back in the first run, so the pause catches the pass.
  const site = robotsSite({ onRequest: (path, nth) => (path !== '/robots.txt' && nth > 1 && slowRevisits ? 5_000 : 0) });
  const { requested } = site;
  const fields = { name: 'Revisit, robots.txt down', coherence: { mode: 'visit-revisit' }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-revisit-robots-down-', site.listener, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    // Runs 2 and 3 keep robots.txt answers an hour: run 1's, kept for a day, are more than that allows
    // (robots-cache.ts restore), so they read robots.txt afresh rather than resuming with it.
    const engine = (robotsBackoff: { baseMs: number; maxMs: number }, robotsMaxAgeMs?: number) =>
      new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool'), haltGraceMs: 100, robotsBackoff, robotsMaxAgeMs });
    const pending = () => db.prepare('SELECT url FROM CoherencePage WHERE crawlId = ? AND revisitedAt IS NULL ORDER BY url').pluck().all(crawlId) as string[];
    const pages = [`${origin}/`, `${origin}/a`, `${origin}/b`];
    const pagesRequested = (from: number) => requested.slice(from).filter((p) => p !== '/robots.txt');
    const robotsRequests = (from: number) => requested.slice(from).filter((p) => p === '/robots.txt').length;

    // Run 1: the visit pass, then a pause during the first revisit.
    const first = engine({ baseMs: 30_000, maxMs: 600_000 });
    const run1 = first.run();
    for (const end = Date.now() + 20_000; requested.length === new Set(requested).size && Date.now() < end; ) await sleep(20);
    await first.pause();
    assert.equal(await run1, 'paused');
    assert.deepEqual(pending(), pages, 'no page revisited yet');

    // Run 2: robots.txt answers 503, and the next try is 5–10 s away: a pause meanwhile leaves the pages.
    site.robots = 503;
    slowRevisits = false;
    let from = requested.length;
    const second = engine({ baseMs: 10_000, maxMs: 10_000 }, 3_600_000);
    const run2 = second.run();
    for (const end = Date.now() + 20_000; robotsRequests(from) === 0 && Date.now() < end; ) await sleep(20);
    await sleep(200);
    const pausedAt = Date.now();
    await second.pause();
    assert.equal(await run2, 'paused');
    // Before the next try (5–10 s away), with room for a loaded machine.
    assert.ok(Date.now() - pausedAt < 4_000, `the wait for robots.txt ended at the pause (${Date.now() - pausedAt} ms)`);
    assert.equal(robotsRequests(from), 1);
    assert.deepEqual(pagesRequested(from), [], 'no page requested while robots.txt was unreachable');
    assert.deepEqual(pending(), pages, 'the pages are left to the resumed run');

    // Run 3: robots.txt still unreachable; tried three times, 25–100 ms apart, then it counts as disallowing everything.
    from = requested.length;
    assert.equal(await engine({ baseMs: 50, maxMs: 100 }, 3_600_000).run(), 'finished');
    assert.equal(robotsRequests(from), 3, `robots.txt tried three times: ${requested.slice(from).join(' ')}`);
    assert.deepEqual(pagesRequested(from), [], `no page requested: ${requested.slice(from).join(' ')}`);
    const rows = db.prepare('SELECT url, status, evidence, changeRate FROM CoherencePage WHERE crawlId = ? ORDER BY url').all(crawlId);
    assert.deepEqual(rows, pages.map((url) => ({ url, status: 'missing', evidence: 'robots-unavailable', changeRate: null })));
    const log = db.prepare("SELECT url, status, message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'robots-unavailable' ORDER BY url").all(crawlId) as { url: string; status: number | null; message: string }[];
    assert.deepEqual(log.map((l) => [l.url, l.status]), pages.map((url) => [url, null]));
    assert.match(log[0]!.message, /revisit.*robots\.txt unavailable/);
    const certificate = JSON.parse(readFileSync(join(warcDir, CERTIFICATE_FILE), 'utf8')) as CoherenceCertificate;
    assert.deepEqual(certificate.unchanged, []);
    assert.deepEqual(certificate.notCertified.map((p) => [p.url, p.status, p.evidence]), pages.map((url) => [url, 'missing', 'robots-unavailable']));
  });
});

test('a Sitemap: line robots.txt gains during the revisit pass leaves nothing queued in the finished crawl', { timeout: 60_000 }, async () => {
  let origin = '';
  // From the first revisit on (a page's second request), robots.txt names a sitemap no page led to.
  const site = robotsSite({
    onRequest: (path, nth) => {
      if (path !== '/robots.txt' && nth === 2) site.robots = `User-agent: *\nDisallow:\nSitemap: ${origin}/late-sitemap.xml\n`;
    },
  });
  const { requested } = site;
  const fields = { name: 'Revisit and a late sitemap', coherence: { mode: 'visit-revisit' }, politeness: { minDelayMs: 50, maxDelayMs: 100, concurrency: 1 } };
  await withSiteCrawl('tm-revisit-late-sitemap-', site.listener, fields, async ({ origin: o, dir, db, icd, crawlId }) => {
    origin = o;
    // robots.txt is kept 20 ms, under the 50 ms the host's requests are apart: each revisit reads it again.
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), robotsMaxAgeMs: 20 });
    assert.equal(await engine.run(), 'finished');
    const firstRevisit = requested.findIndex((p, i) => p !== '/robots.txt' && requested.indexOf(p) < i);
    assert.ok(requested.slice(firstRevisit).includes('/robots.txt'), `robots.txt was read again after it named the sitemap: ${requested.join(' ')}`);
    const left = db.prepare('SELECT url, state FROM frontier_url WHERE crawl_id = ? AND state IN (0, 1, 5)').all(crawlId);
    assert.deepEqual(left, [], 'no URL queued, in flight or retrying in the finished crawl');
    assert.ok(!requested.includes('/late-sitemap.xml'), `the sitemap found after the visit pass is not visited: ${requested.join(' ')}`);
    const certificate = JSON.parse(readFileSync(join(dir, 'warcs', CERTIFICATE_FILE), 'utf8')) as CoherenceCertificate;
    assert.deepEqual(certificate.unchanged.map((p) => p.url), [`${origin}/`, `${origin}/a`, `${origin}/b`]);
  });
});
