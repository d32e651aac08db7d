/**
 * Bare specifiers resolve through the page's import map as a browser resolves them: an inline
 * module's through the scopes that hold the page, then the top-level imports; an external module's
 * (one the page loads, and those it imports) through the same page's map, scoped by the module's
 * own URL. Found by a differential exploration (Chromium live against ReplayWeb.page on the WARC):
 * the modules such imports name answered 404 in replay. The crawl is stopped by its page budget
 * after the page and resumed, as the CLI resumes a crawl in its --out: the map is read again from
 * the crawl's state. A loopback site and the real CLI; the captures are read from index.cdxj.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { runCli } from '../../support/run-cli';
import { withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

// Prefix mappings only: a map's whole addresses are the page's requisites whoever imports them.
const PAGE = `<!doctype html><title>scoped</title>
<script type="importmap">{
  "imports": {"util/": "/js/util/", "vendor/": "/js/vendor/"},
  "scopes": {"/app/": {"util/": "/app/util/"}, "/js/vendor/": {"util/": "/js/vendor/util/"}}
}</script>
<script type="module" src="/js/main.mjs"></script>
<script type="module">import 'util/inline.js';</script>`;

const MODULES: Record<string, string> = {
  // Outside /app/: the top-level "util/"; its vendor import goes on in the vendor scope.
  '/js/main.mjs': `import 'util/main-dep.js'; import { v } from 'vendor/v.js'; export const m = v;`,
  '/js/vendor/v.js': `import 'util/vendor-dep.js'; export const v = 1;`,
  '/app/util/inline.js': 'export {};',
  '/js/util/main-dep.js': 'export {};',
  '/js/vendor/util/vendor-dep.js': 'export {};',
};

/**
 * Crawls a loopback site of `page` at /app/ and `modules` (path → source) with the CLI, stopped by
 * its page budget after the page and resumed (the map read again from the crawl's state); the
 * paths it asks for beyond the page's graph fail the test; `check` looks at the URLs captured.
 */
async function crawlModuleSite(page: string, modules: Record<string, string>, check: (captured: ReadonlySet<string>) => void = () => undefined): Promise<void> {
  const requested: string[] = [];
  const site: RequestListener = (req, res) => {
    requested.push(req.url!);
    if (req.url === '/app/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    const source = modules[req.url!];
    if (source !== undefined) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(source);
    res.writeHead(404).end();
  };
  await withSite(site, async (origin) => {
    await withTempDir('tm-import-map-scopes-', async (dir) => {
      const out = join(dir, 'out');
      const icd = join(dir, 'icd.json');
      writeFileSync(icd, JSON.stringify({ name: 'module imports', seeds: [`${origin}/app/`], politeness: { enabled: false }, scope: { includeFavicon: false } }));
      // The first run fetches the page and stops: its modules are fetched by the resumed one.
      for (const budget of ['1', '100']) {
        const run = await runCli(['crawl', icd, '--out', out, '--max-pages', budget, '--json']).done;
        assert.equal(run.code, 0, run.stderr.slice(-1000));
      }
      const captured = new Set(
        readFileSync(join(out, 'index.cdxj'), 'utf8').trim().split('\n').map((line) => (JSON.parse(line.slice(line.indexOf('{'))) as { url: string }).url),
      );
      assert.deepEqual(Object.keys(modules).filter((p) => !captured.has(`${origin}${p}`)), [], 'every module of the graph captured');
      assert.deepEqual(requested.filter((p) => !(p in modules) && p !== '/app/' && p !== '/robots.txt'), [], 'nothing resolved elsewhere asked for');
      check(captured);
    });
  });
}

test('bare specifiers of inline and external modules resolve through the page\'s import map and its scopes, across a resume', { timeout: 90_000 }, () => crawlModuleSite(PAGE, MODULES));

// A carry-over of the same exploration: entries for URL-like specifiers were not applied, so the crawl
// fetched the URL a module wrote (/js/v1/a.js, a CDN's library) and never the one a browser asks for.
const URL_LIKE_PAGE = `<!doctype html><title>remapped</title>
<script type="importmap">{
  "imports": {"/js/v1/": "/js/v2/", "https://cdn.example/lib.js": "/vendor/lib.js"},
  "scopes": {"/js/": {"./old.js": "/js/new.js"}}
}</script>
<script type="module" src="/js/main.mjs"></script>`;

const URL_LIKE_MODULES: Record<string, string> = {
  // "./old.js" of the scope was written against the page (/app/old.js): main.mjs's ./old.js is /js/old.js, not mapped.
  '/js/main.mjs': `import '/js/v1/a.js'; import 'https://cdn.example/lib.js'; import './old.js'; import '../app/old.js';`,
  '/js/v2/a.js': 'export {};',
  '/vendor/lib.js': 'export {};',
  '/js/old.js': 'export {};',
  '/js/new.js': 'export {};',
};

test('URL-like specifiers of an external module resolve through the page\'s import map as the URLs they name, across a resume', { timeout: 90_000 }, () =>
  crawlModuleSite(URL_LIKE_PAGE, URL_LIKE_MODULES, (captured) => {
    assert.ok(![...captured].some((u) => u.includes('cdn.example')), 'the CDN\'s URL, mapped away, not fetched');
  }));
