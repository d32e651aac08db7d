/**
 * A capture's payload downloads under the name its URL gives it, in any script, as Chromium saves
 * it: the capture route called as Next calls it, over a real database and the WARC files of a real
 * crawl of a loopback site, its response handed to headless Chromium by a loopback server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { icdSchema } from '../../../worker/icd/schema';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { crawlWarcDir } from '../../../worker/store/data-layout';
import { routeDatabase, signedInAs } from '../../support/route-database';
import { insertCrawl } from '../../support/crawl-rows';
import { withSite } from '../../support/site-crawl';
import { launchBrowser } from '../../e2e/helpers/browser';

const NAMES = ["l'été.pdf", 'report (1).pdf', '日本語.html', 'שלום.txt'];

/** The route's database and a curator signed in, one for the file's tests (the services are the process's). */
let cockpit: Promise<{ services: Awaited<ReturnType<typeof routeDatabase>>; viewer: { cookie: string } }> | undefined;
async function signedInCurator() {
  const services = await routeDatabase('tidemark-download-names-');
  return { services, viewer: await signedInAs(services, 'curator', 'curator') };
}

/**
 * Crawls a loopback site whose home page links to each of `paths` (as written, escapes and all),
 * then has Chromium download each capture's payload from the capture route: the name it saved
 * each path's payload under.
 */
async function savedNames(paths: readonly string[]): Promise<Record<string, string>> {
  const { services, viewer } = await (cockpit ??= signedInCurator());
  const site = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(paths.map((p) => `<a href="${p}">x</a>`).join(' '));
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(`payload of ${req.url}`);
  };
  const saved: Record<string, string> = {};
  await withSite(site, async (origin) => {
    const icd = icdSchema.parse({ name: 'Names', seeds: [`${origin}/`], scope: { includeFavicon: false }, politeness: { enabled: false }, aah: { enabled: false } });
    const crawlId = insertCrawl(services.db, icd);
    const engine = new CrawlEngine({ crawlId, icd, db: services.db, warcDir: crawlWarcDir(services.env.dataDir, crawlId), spoolDir: join(services.env.dataDir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    const captures = services.db.prepare("SELECT id, url FROM Capture WHERE crawlId = ? AND url != ? AND url NOT LIKE '%/robots.txt'").all(crawlId, `${origin}/`) as { id: number; url: string }[];
    assert.equal(captures.length, paths.length);
    const route = await import('../../../app/api/crawls/[id]/captures/[captureId]/route');
    // The route's own response, as the cockpit's server would send it, to the browser.
    const server = createServer((req, res) => {
      const captureId = /^\/download\/(\d+)$/.exec(req.url ?? '')?.[1];
      if (!captureId) return void res.writeHead(200, { 'content-type': 'text/html' }).end(captures.map((c) => `<a id="c${c.id}" href="/download/${c.id}">x</a>`).join(' '));
      const request = new Request(`http://cockpit.test/api/crawls/${crawlId}/captures/${captureId}?payload=1`, { headers: { host: 'cockpit.test', cookie: viewer.cookie } });
      void route.GET(request, { params: Promise.resolve({ id: String(crawlId), captureId }) }).then(async (answer) => {
        res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext({ acceptDownloads: true })).newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      for (const c of captures) {
        const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#c${c.id}`)]);
        saved[new URL(c.url).pathname] = download.suggestedFilename();
      }
    } finally {
      await browser.close();
      server.closeAllConnections();
      server.close();
    }
  });
  return saved;
}

test('Chromium saves a capture\'s payload under its URL\'s name: an apostrophe, brackets, CJK, Hebrew', { timeout: 60_000 }, async () => {
  const saved = await savedNames(NAMES.map((n) => `/${encodeURIComponent(n)}`));
  assert.deepEqual(saved, Object.fromEntries(NAMES.map((n) => [`/${encodeURIComponent(n)}`, n])));
});

// Found by an exploratory session: a `%` that starts no escape made the whole name undecodable, and
// the payload downloaded as "payload".
test('a payload whose URL has a malformed percent-escape keeps its name: what decodes is decoded, the rest kept as written', { timeout: 60_000 }, async () => {
  const saved = await savedNames(['/files/100%-report.pdf', '/a%zz.pdf', '/caf%C3%A9%-menu.pdf', '/%E9t%C3%A9.txt']);
  assert.deepEqual(saved, {
    '/files/100%-report.pdf': '100%-report.pdf',
    '/a%zz.pdf': 'a%zz.pdf',
    '/caf%C3%A9%-menu.pdf': 'café%-menu.pdf',
    '/%E9t%C3%A9.txt': '%E9té.txt',
  });
});
