/**
 * Recrawl rounds refetch pages for as long as a crawl runs (weeks), and robots.txt is read again
 * each day: a page it has come to disallow is not refetched (rounds did not ask it). Real parts: a
 * migrated SQLite database, the engine on a shortened minute and robots.txt age, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { robotsSite } from '../../support/robots-site';

test('a recrawl round does not refetch a page robots.txt has come to disallow', { timeout: 60_000 }, async () => {
  const site = robotsSite({ body: (path) => `<p>${path} ${Date.now()}</p>` });
  const { requested } = site;
  await withSiteCrawl('tm-recrawl-robots-', site.listener, { name: 'Recrawl and robots', coherence: { recrawlIntervalMinutes: 1 } }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300, robotsMaxAgeMs: 200 });
    const run = engine.run();
    const captured = (url: string) => (db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, url) as number) > 0;
    for (const end = Date.now() + 20_000; !captured(`${origin}/b`) && Date.now() < end; ) await sleep(20);
    assert.ok(captured(`${origin}/b`), 'the visit captured /b');
    // The site now disallows /b; rounds start after this.
    site.robots = 'User-agent: *\nDisallow: /b\n';
    const from = requested.length;
    const rounds = () => engine.incremental?.rounds.length ?? 0;
    const before = rounds();
    for (const end = Date.now() + 30_000; rounds() < before + 2 && Date.now() < end; ) await sleep(20);
    await engine.stop();
    assert.equal(await run, 'stopped');
    const later = requested.slice(from);
    assert.ok(rounds() >= before + 2 && later.includes('/a'), `two rounds refetched the pages: ${later.join(' ')}`);
    assert.ok(later.includes('/robots.txt'), 'robots.txt was read again');
    assert.deepEqual(later.filter((p) => p === '/b'), [], `/b was not refetched: ${later.join(' ')}`);
  });
});

test('a parent that robots.txt has come to disallow is neither counted as refetched nor taken for unchanged', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  let robots = 'User-agent: *\nDisallow:\n';
  let readings = 0;
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title>${body}`);
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
    if (path === '/') return void html('<a href="/hub">hub</a>');
    // The hub never changes; its two articles change at every request.
    if (path === '/hub') return void html('<a href="/news/1">one</a> <a href="/news/2">two</a>');
    if (path === '/news/1' || path === '/news/2') return void html(`<p>reading ${++readings}</p>`);
    res.writeHead(404).end();
  };
  await withSiteCrawl('tm-recrawl-parent-robots-', site, { name: 'Parent and robots', coherence: { recrawlIntervalMinutes: 1 } }, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300, robotsMaxAgeMs: 100 });
    const run = engine.run();
    const rounds = () => engine.incremental?.rounds ?? [];
    for (const end = Date.now() + 20_000; rounds().length < 1 && Date.now() < end; ) await sleep(5);
    // Round 1 refetched the four pages, the hub unchanged (not due in round 2). Then the hub is disallowed.
    robots = 'User-agent: *\nDisallow: /hub\n';
    const from = requested.length;
    for (const end = Date.now() + 20_000; rounds().length < 2 && Date.now() < end; ) await sleep(5);
    await engine.stop();
    assert.equal(await run, 'stopped');
    const [round1, round2] = rounds();
    assert.equal(round1?.fetched, 4);
    const later = requested.slice(from).filter((p) => p !== '/robots.txt');
    assert.deepEqual(later.sort(), ['/news/1', '/news/2'], 'round 2 requested the articles, not the hub');
    // Both articles changed, so the rule asked for the hub; robots.txt said no.
    assert.equal(round2?.fetched, 2, `only the requests made count: ${JSON.stringify(round2)}`);
    assert.equal(round2?.parentsFetched, 0);
    assert.equal(round2?.parentThreshold, round1?.parentThreshold, 'the threshold is left as it was: the hub was not observed');
  });
});
