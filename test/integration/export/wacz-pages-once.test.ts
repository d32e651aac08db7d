/**
 * A WACZ of a visit–revisit crawl lists each page once: its first capture, with its title (the
 * coherence revisit's capture came second, untitled), and opens on the definition's first seed
 * rather than on whichever page was captured first. Real parts: a loopback site, the engine, a
 * migrated SQLite database, the export job writing the WACZ.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { exportWacz } from '../../support/wacz-export';

/** Pages whose text changes at every request (so each revisit is a full response), and a first seed answered only once /a is asked for. */
function site(): RequestListener {
  const hits = new Map<string, number>();
  let aAsked!: () => void;
  const aWasAsked = new Promise<void>((r) => (aAsked = r));
  return (req, res) => {
    const path = req.url ?? '/';
    const n = (hits.get(path) ?? 0) + 1;
    hits.set(path, n);
    if (path === '/robots.txt') return void res.writeHead(404).end();
    if (path === '/a') aAsked();
    const page = (title: string, links = '') => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${title}</title><p>version ${n}</p>${links}`);
    if (path === '/') return page('home', '<a href="/a">a</a>');
    if (path === '/a') return page('page a');
    // The first seed: its first answer waits until the other seed's page was read and its link followed.
    if (path === '/first') return void (n === 1 ? aWasAsked.then(() => page('first seed')) : page('first seed'));
    res.writeHead(404).end();
  };
}

test('a WACZ of a visit–revisit crawl lists each page once, titled, and opens on the first seed', { timeout: 60_000 }, async () => {
  const fields = (origin: string) => ({
    name: 'Pages once', seeds: [`${origin}/first`, `${origin}/`], coherence: { mode: 'visit-revisit' },
    politeness: { enabled: false, concurrency: 2 }, limits: { maxRetries: 0 },
  });
  await withSiteCrawl('tm-wacz-pages-once-', site(), fields, async ({ dir, db, icd, crawlId, origin }) => {
    const warcDir = join(dir, 'warcs');
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    // Each page was captured twice: its visit, then its coherence revisit, a full response titled as the visit is.
    const captures = db.prepare("SELECT url, title FROM Capture WHERE url != ? ORDER BY id").all(`${origin}/robots.txt`) as { url: string; title: string | null }[];
    const paths = captures.map((c) => new URL(c.url).pathname);
    assert.deepEqual(captures.map((c) => `${new URL(c.url).pathname} ${c.title}`).sort(), ['/ home', '/ home', '/a page a', '/a page a', '/first first seed', '/first first seed']);
    assert.ok(paths.indexOf('/') < paths.indexOf('/first'), `the other seed was captured first: ${paths.join(', ')}`);

    const entries = await exportWacz(db, crawlId, dir, warcDir);
    const [, ...lines] = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
    const pages = lines.map((l) => JSON.parse(l) as { url: string; title?: string });
    // Seeds (depth 0) first, in the order they were captured; each page once, with its title.
    assert.deepEqual(pages.map((p) => [new URL(p.url).pathname, p.title]), [['/', 'home'], ['/first', 'first seed'], ['/a', 'page a']]);
    const manifest = JSON.parse(entries.get('datapackage.json')!.bytes.toString('utf8')) as { mainPageUrl?: string };
    assert.equal(manifest.mainPageUrl, `${origin}/first`, 'the first seed, though another page was captured before it');
  });
});
