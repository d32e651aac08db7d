/**
 * What a page's requisites draw from elsewhere is captured too, so the page replays whole: the
 * images an SVG shows, the icons a web app manifest lists. Real parts: the engine (its extract stage choosing what to read), a
 * migrated SQLite database, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** Serves `routes` (path → [content type, body]), a PNG for any other path under /img/, else 404. */
function site(routes: Record<string, [string, string]>) {
  return (req: { url?: string }, res: ServerResponse) => {
    const route = routes[req.url ?? ''];
    if (route) return void res.writeHead(200, { 'content-type': route[0] }).end(route[1]);
    if (req.url?.startsWith('/img/')) return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    res.writeHead(404).end();
  };
}

/** Crawls `routes` from `/` and gives the URLs captured, paths only. */
async function capturedPaths(prefix: string, routes: Record<string, [string, string]>): Promise<string[]> {
  let paths: string[] = [];
  await withSiteCrawl(prefix, site(routes), { name: prefix }, async ({ origin, dir, db, icd, crawlId }) => {
    assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') }).run(), 'finished');
    paths = (db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(crawlId) as string[]).map((u) => u.slice(origin.length));
  });
  return paths;
}

test('an SVG shown through <img> or <object> is read for its images, sprites and stylesheets', { timeout: 60_000 }, async () => {
  const paths = await capturedPaths('tm-svg-requisites-', {
    '/': ['text/html', '<title>Map</title><img src="/map.svg"><object data="/chart.svg"></object>'],
    '/map.svg': ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><style>@import "/svg.css";</style><image xlink:href="img/coast.png"/></svg>'],
    '/chart.svg': ['image/svg+xml; charset=utf-8', '<svg xmlns="http://www.w3.org/2000/svg"><use href="/img/sprite.svg#bar"/></svg>'],
    '/svg.css': ['text/css', 'rect { fill: url(/img/pattern.png) }'],
  });
  for (const p of ['/map.svg', '/chart.svg', '/svg.css', '/img/coast.png', '/img/sprite.svg', '/img/pattern.png']) assert.ok(paths.includes(p), `${p} captured (got ${paths.join(' ')})`);
});

test('the icons a web app manifest lists are captured, by its type or by its name', { timeout: 60_000 }, async () => {
  const paths = await capturedPaths('tm-manifest-requisites-', {
    '/': ['text/html', '<title>App</title><link rel="manifest" href="/app.webmanifest"><a href="/other">other</a>'],
    '/other': ['text/html', '<title>Other</title><link rel="manifest" href="/m/manifest.json">'],
    '/app.webmanifest': ['application/manifest+json', JSON.stringify({ icons: [{ src: 'img/192.png' }], screenshots: [{ src: '/img/shot.png' }], shortcuts: [{ icons: [{ src: 'img/short.png' }] }] })],
    '/m/manifest.json': ['application/json', JSON.stringify({ icons: [{ src: '../img/legacy.png' }] })],
  });
  for (const p of ['/app.webmanifest', '/img/192.png', '/img/shot.png', '/img/short.png', '/m/manifest.json', '/img/legacy.png']) assert.ok(paths.includes(p), `${p} captured (got ${paths.join(' ')})`);
});

test('a manifest a page links is read whatever its type (a .webmanifest served as application/octet-stream); the same JSON linked otherwise is not', { timeout: 60_000 }, async () => {
  const manifest = (icon: string) => JSON.stringify({ name: 'App', icons: [{ src: icon, sizes: '192x192' }] });
  const paths = await capturedPaths('tm-manifest-any-type-', {
    '/': ['text/html', '<title>App</title><link rel="manifest" href="/site.webmanifest"><link rel="Manifest" href="/app-manifest"><img src="/img/data.bin"><a href="/other">other</a>'],
    '/other': ['text/html', '<title>Other</title><link rel="manifest" href="/broken.webmanifest">'],
    '/site.webmanifest': ['application/octet-stream', manifest('img/octet-icon.png')],
    '/app-manifest': ['text/html', manifest('/img/html-typed-icon.png')],
    '/broken.webmanifest': ['application/octet-stream', '{"icons": [{"src": "/img/never.png"}'],
    '/img/data.bin': ['application/octet-stream', manifest('/img/not-a-manifest-icon.png')],
  });
  for (const p of ['/site.webmanifest', '/img/octet-icon.png', '/app-manifest', '/img/html-typed-icon.png', '/broken.webmanifest']) assert.ok(paths.includes(p), `${p} captured (got ${paths.join(' ')})`);
  assert.ok(!paths.includes('/img/never.png'), 'a manifest that is no JSON object yields nothing');
  assert.ok(!paths.includes('/img/not-a-manifest-icon.png'), 'JSON linked as an image is no manifest');
});
