/**
 * Cookies go as a browser would send them (SameSite, RFC 6265bis): a crawl finds, on a page of site
 * A, an image and a link of site B, which has set a Strict, a Lax and a plain cookie. The image (a
 * cross-site subresource) is asked for with the plain cookie only, the link (a cross-site
 * navigation) with the Lax and plain ones, and a page of B found on B with all; a Strict cookie set
 * in the image's response is not kept. A revisit asks for a page as its visit did. Two loopback
 * addresses, two sites; the real CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { runCli } from '../../support/run-cli';
import { serveOn } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

const page = (body: string) => `<!doctype html><title>page</title>${body}`;

/** Two sites, A on 127.0.0.1 and B on 127.0.0.2, crawled from B's `/set` and A's `/` with `fields` in the ICD; returns the Cookie headers B was sent, by path, request by request. */
async function crawlTwoSites(fields: Record<string, unknown>): Promise<Map<string, (string | null)[]>> {
  const cookiesAt = new Map<string, (string | null)[]>();
  let b = '';
  const siteB: RequestListener = (req, res) => {
    cookiesAt.set(req.url ?? '', [...(cookiesAt.get(req.url ?? '') ?? []), req.headers.cookie ?? null]);
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (req.url === '/set') {
      res.setHeader('set-cookie', ['strict=1; Path=/; SameSite=Strict', 'lax=1; Path=/; SameSite=Lax', 'plain=1; Path=/']);
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(page('<p>cookies set</p>'));
    }
    if (req.url === '/img.png') {
      res.setHeader('set-cookie', ['fromimage=1; Path=/; SameSite=Strict', 'plainimage=1; Path=/']);
      return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    }
    if (req.url === '/page') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page('<a href="/later">later</a>'));
    res.writeHead(200, { 'content-type': 'text/html' }).end(page('<p>later</p>'));
  };
  const siteA: RequestListener = (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    // Fetched once B's /set was: A's only page waits for it, so that B's cookies are there when its links are.
    const answer = () => res.writeHead(200, { 'content-type': 'text/html' }).end(page(`<img src="${b}/img.png"> <a href="${b}/page">B's page</a>`));
    const wait = () => (cookiesAt.has('/set') ? setTimeout(answer, 50) : setTimeout(wait, 10));
    wait();
  };
  const A = await serveOn('127.0.0.1', siteA);
  const B = await serveOn('127.0.0.2', siteB);
  b = B.origin;
  try {
    await withTempDir('tm-same-site-', async (out) => {
      const icdPath = join(out, 'icd.json');
      writeFileSync(icdPath, JSON.stringify({ name: 'SameSite', seeds: [`${B.origin}/set`, `${A.origin}/`], politeness: { minDelayMs: 20, maxDelayMs: 20 }, ...fields }));
      const run = await runCli(['crawl', icdPath, '--out', join(out, 'crawl'), '--json']).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
    });
    return cookiesAt;
  } finally {
    A.close();
    B.close();
  }
}

/** The cookies of the `i`-th request for `path`, sorted. */
const sent = (cookiesAt: Map<string, (string | null)[]>, path: string, i = 0) => (cookiesAt.get(path)?.[i] ?? '').split(/;\s*/).filter(Boolean).sort();

test('a cross-site image gets SameSite=None cookies only, a cross-site link Lax ones too, a same-site page all; a Strict cookie set by a cross-site image is not kept', { timeout: 90_000 }, async () => {
  const cookiesAt = await crawlTwoSites({});
  assert.deepEqual([...cookiesAt.keys()].filter((p) => p !== '/robots.txt').sort(), ['/favicon.ico', '/img.png', '/later', '/page', '/set']);
  assert.deepEqual(sent(cookiesAt, '/img.png'), ['plain=1'], 'a subresource of another site: SameSite=None (or unset) cookies only');
  assert.deepEqual(sent(cookiesAt, '/page').filter((c) => !c.startsWith('plainimage')), ['lax=1', 'plain=1'], 'a link from another site: Lax cookies too, Strict not');
  assert.deepEqual(sent(cookiesAt, '/later'), ['lax=1', 'plain=1', 'plainimage=1', 'strict=1'], 'a page found on its own site: every cookie but the Strict one a cross-site image set');
});

test('a revisit asks for a page as its visit did: the page B links from A goes again without the Strict cookie', { timeout: 90_000 }, async () => {
  const cookiesAt = await crawlTwoSites({ coherence: { mode: 'visit-revisit' } });
  assert.equal(cookiesAt.get('/page')?.length, 2, 'visited, then revisited');
  assert.deepEqual(sent(cookiesAt, '/page', 1).filter((c) => !c.startsWith('plainimage')), ['lax=1', 'plain=1'], 'a link from another site, again: Lax cookies, Strict not');
  assert.equal(cookiesAt.get('/later')?.length, 2);
  assert.ok(sent(cookiesAt, '/later', 1).includes('strict=1'), 'found on its own site: every cookie, again');
});
