import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractFromResponse, extractHtml, type ExtractedLink, type ResponseInput } from '../../../worker/extract';

// Only the public entry points old code had too, so each test fails on it (no links came out).

const MODULE_URL = 'http://example.org/js/main.mjs';
const PAGE_URL = 'http://example.org/app/index.html';

const moduleResponse = (source: string | Buffer, over: Partial<ResponseInput> = {}): ResponseInput => ({
  url: MODULE_URL,
  status: 200,
  headers: { 'content-type': 'text/javascript; charset=utf-8' },
  body: Buffer.isBuffer(source) ? source : Buffer.from(source),
  maxDecodedBytes: 1_000_000,
  ...over,
});

const urlsOf = (links: readonly ExtractedLink[]) => links.map((l) => l.url);

test('a module response: its static imports, re-exports and literal import() are requisites, in order', () => {
  const source = `import x from './dep-a.mjs';
    import "/js/dep-b.mjs";
    export * from './dep-c.mjs';
    export { y } from "../shared/y.js";
    import * as ns from 'https://cdn.example.net/lib.js';
    const lazy = () => import('./lazy.mjs');
    const computed = import(name), templated = import(\`./locale/\${lang}.js\`);
    import json from './data.json' with { type: 'json' };
    console.log(import.meta.url, "import './in-a-string.js'"); // import './in-a-comment.js'`;
  const r = extractFromResponse(moduleResponse(source));
  assert.equal(r.kind, 'script');
  assert.deepEqual(
    r.links.map((l) => [l.url, l.kind, l.source]),
    [
      ['http://example.org/js/dep-a.mjs', 'requisite', 'module@import'],
      ['http://example.org/js/dep-b.mjs', 'requisite', 'module@import'],
      ['http://example.org/js/dep-c.mjs', 'requisite', 'module@import'],
      ['http://example.org/shared/y.js', 'requisite', 'module@import'],
      ['https://cdn.example.net/lib.js', 'requisite', 'module@import'],
      ['http://example.org/js/lazy.mjs', 'requisite', 'module@import'],
      ['http://example.org/js/data.json', 'requisite', 'module@import'],
    ],
  );
});

test('bare specifiers of a module response are left out (only the page import map names their URL), and non-http ones', () => {
  const r = extractFromResponse(moduleResponse(`import a from 'lodash'; import b from 'dir/x.js'; import c from 'data:text/javascript,1'; import d from './d.js';`));
  assert.deepEqual(urlsOf(r.links), ['http://example.org/js/d.js']);
});

test('every JavaScript type is read; a classic script, a script that does not lex and one past the cap yield nothing', () => {
  for (const type of ['application/javascript', 'text/javascript', 'application/x-javascript', 'text/ecmascript']) {
    assert.deepEqual(urlsOf(extractFromResponse(moduleResponse(`import './a.js'`, { headers: { 'content-type': type } })).links), ['http://example.org/js/a.js'], type);
  }
  // No Content-Type: the .mjs name says module.
  assert.deepEqual(urlsOf(extractFromResponse(moduleResponse(`import './a.js'`, { headers: {} })).links), ['http://example.org/js/a.js']);
  assert.deepEqual(extractFromResponse(moduleResponse(`var a = 1; obj.import('./no.js'); function f() { return a / 2 }`)).links, []);
  assert.deepEqual(extractFromResponse(moduleResponse(`var x = {; import './q.js'`)).links, []);
  assert.deepEqual(extractFromResponse(moduleResponse('\u0000\u00ff<html>garbage{{{(')).links, []);
  const long = `import './a.js';\n${'//'.padEnd(2000, 'x')}`;
  assert.deepEqual(extractFromResponse(moduleResponse(long, { maxDecodedBytes: 1024 })).links, []);
  // A classic script's import() of a literal is loaded by a browser too.
  assert.deepEqual(urlsOf(extractFromResponse(moduleResponse(`document.onclick = () => import('./on-click.js')`)).links), ['http://example.org/js/on-click.js']);
});

test('a module is read as UTF-8, with a byte order mark, whatever charset its type names', () => {
  const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`import './café.js'`)]);
  const r = extractFromResponse(moduleResponse(body, { headers: { 'content-type': 'text/javascript; charset=iso-8859-1' } }));
  assert.deepEqual(urlsOf(r.links), ['http://example.org/js/caf%C3%A9.js']);
});

test('an inline module: its imports resolve against the page base URL', () => {
  const html = `<html><head><base href="/site/"><script type="module">import './inl-dep.js'; import('/js/lazy.js');</script>
    <script type=" MODULE ">export * from "../up.js"</script>
    <script>import('./classic-dynamic.js')</script>
    <script type="module" src="/js/main.mjs">import './ignored-beside-src.js'</script>
    </head><body></body></html>`;
  const links = extractHtml(html, PAGE_URL).links;
  assert.deepEqual(
    links.map((l) => [l.url, l.kind, l.source]),
    [
      ['http://example.org/js/main.mjs', 'requisite', 'script@src'],
      ['http://example.org/site/inl-dep.js', 'requisite', 'script@import'],
      ['http://example.org/js/lazy.js', 'requisite', 'script@import'],
      ['http://example.org/up.js', 'requisite', 'script@import'],
    ],
  );
});

test('an import map: every address of imports and scopes is a requisite; a prefix is not; bare inline imports go through it', () => {
  const html = `<script type="module">import lib from 'lib'; import x from 'dir/x.js'; import up from 'dir/../up.js'; import n from 'unmapped';</script>
    <script type="importmap">{
      "imports": {"lib": "/js/lib.js", "dir/": "/js/libdir/", "cdn": "https://cdn.example.net/c.js", "bad": "not-url-like", "num": 3},
      "scopes": {"/app/": {"lib": "./lib-app.js", "deep/": "/deep/"}, "/x/": "not an object"}
    }</script>
    <script type="importmap">{"imports": {"lib": "/js/other-lib.js", "second": "/js/second.js"}}</script>`;
  const links = extractHtml(html, PAGE_URL).links;
  assert.deepEqual(
    links.map((l) => [l.url, l.source]),
    [
      ['http://example.org/js/lib.js', 'script@importmap'],
      ['https://cdn.example.net/c.js', 'script@importmap'],
      ['http://example.org/app/lib-app.js', 'script@importmap'],
      ['http://example.org/js/other-lib.js', 'script@importmap'],
      ['http://example.org/js/second.js', 'script@importmap'],
      // lib is already there; the first map's "dir/" prefix maps dir/x.js; "../" out of a prefix is refused.
      ['http://example.org/js/libdir/x.js', 'script@import'],
    ],
  );
  assert.ok(links.every((l) => l.kind === 'requisite'));
});

test('a broken import map or module yields nothing and breaks nothing', () => {
  const html = `<script type="importmap">{"imports": {"lib": "/js/lib.js"</script><script type="importmap">[1, 2]</script>
    <script type="module">import {</script><a href="/next">next</a><script type="module">import './cut.js'`;
  assert.deepEqual(urlsOf(extractHtml(html, PAGE_URL).links), ['http://example.org/next', 'http://example.org/app/cut.js']);
});

test('an inline module\'s bare specifier goes through the scopes whose prefix holds the page, the most specific first, then the top-level imports', () => {
  // Prefixes only: a map's whole addresses are the page's requisites anyway.
  const html = `<script type="importmap">{
      "imports": {"util/": "/js/util/", "t/": "/js/t/"},
      "scopes": {"/": {"util/": "/root/util/"}, "/app/": {"util/": "/app/util/"}, "/other/": {"t/": "/other/t/"}, "/app/index.html": {"e/": "/exact/"}}
    }</script>
    <script type="module">import 'util/a.js'; import 't/x.js'; import 'e/y.js';</script>`;
  assert.deepEqual(urlsOf(extractHtml(html, PAGE_URL).links), ['http://example.org/app/util/a.js', 'http://example.org/js/t/x.js', 'http://example.org/exact/y.js']);
});

test('an external module\'s bare specifiers go through its document\'s import map, scoped by the module\'s own URL; asked for only when it has one', () => {
  const page = extractHtml(`<script type="importmap">{
      "imports": {"util/": "./util/", "lib": "/js/lib.js"},
      "scopes": {"/js/vendor/": {"util/": "/js/vendor/util/"}}
    }</script>`, PAGE_URL);
  const map = page.importMap!;
  assert.ok(map, 'the page keeps its map for the modules it loads');
  let asked = 0;
  const importMap = () => (asked++, map);
  const source = `import 'util/a.js'; import lib from 'lib'; import './rel.js'; import 'unmapped';`;
  assert.deepEqual(urlsOf(extractFromResponse(moduleResponse(source, { importMap })).links), ['http://example.org/app/util/a.js', 'http://example.org/js/lib.js', 'http://example.org/js/rel.js'], 'addresses resolved against the page, not the module');
  assert.equal(asked, 1, 'asked once');
  assert.deepEqual(urlsOf(extractFromResponse(moduleResponse(source, { importMap, url: 'http://example.org/js/vendor/v.js' })).links)[0], 'http://example.org/js/vendor/util/a.js', 'a module under a scope resolves through it');
  extractFromResponse(moduleResponse(`export const x = 1;`, { importMap }));
  assert.equal(asked, 2, 'not asked for a module that imports nothing');
  extractFromResponse(moduleResponse(`import './only-relative.js';`, { importMap }));
  assert.equal(asked, 3, 'asked for a module of URL-like imports only: the map may remap them');
  assert.deepEqual(urlsOf(extractFromResponse(moduleResponse(source)).links), ['http://example.org/js/rel.js'], 'without a map, bare specifiers are left out');
  assert.equal(extractHtml('<script type="importmap">{"imports": {}}</script>', PAGE_URL).importMap, undefined, 'a map that maps nothing is not kept');
});

// A carry-over of the differential exploration: an import map's entries for URL-like specifiers
// ("/a.js", "./x.js", "https://cdn…") were never applied, so the crawl fetched the URL the module
// wrote while a browser, and a replay, asks for the mapped one (HTML standard, "resolve a module
// specifier": a URL-like specifier is parsed against the referrer's base, and that URL is looked up
// in the map, whose keys were parsed against the map's base; prefix keys ending in "/" too).
test('URL-like specifiers go through the import map too, as URLs: exact entries, prefixes, scopes; unmapped ones stay as written', () => {
  const html = `<script type="importmap">{
      "imports": {"/app/a.js": "/js/b.js", "./x.js": "/js/x-mapped.js", "https://CDN.example/lib.js": "/vendor/lib.js",
        "https://cdn.example/pkg/": "/vendor/pkg/", "/old/": "/new/"},
      "scopes": {"/js/vendor/": {"/js/b.js": "/js/b-vendored.js"}}
    }</script>
    <script type="module">import './a.js'; import '/app/x.js'; import 'https://cdn.example/lib.js'; import 'https://cdn.example/pkg/p.js';
      import '../old/deep/o.js'; import '/old/../escape.js'; import './plain.js';</script>`;
  const page = extractHtml(html, PAGE_URL);
  // The map's addresses are requisites already; the URLs the module wrote, mapped away, are not asked.
  assert.deepEqual(urlsOf(page.links), [
    'http://example.org/js/b.js', 'http://example.org/js/x-mapped.js', 'http://example.org/vendor/lib.js', 'http://example.org/js/b-vendored.js',
    'http://example.org/vendor/pkg/p.js', 'http://example.org/new/deep/o.js', 'http://example.org/escape.js', 'http://example.org/app/plain.js',
  ]);
  // An external module: its specifiers are parsed against its own URL, then mapped by its document's map.
  const source = `import '/app/a.js'; import './b.js'; import 'https://cdn.example/lib.js'; import './own.js';`;
  assert.deepEqual(urlsOf(extractFromResponse(moduleResponse(source, { importMap: () => page.importMap! })).links), [
    'http://example.org/js/b.js', 'http://example.org/js/b.js', 'http://example.org/vendor/lib.js', 'http://example.org/js/own.js',
  ]);
  // A scope holding the module maps the URL its specifier names; one outside it does not.
  const vendored = `import '/js/b.js'; import '../b.js';`;
  assert.deepEqual(urlsOf(extractFromResponse(moduleResponse(vendored, { importMap: () => page.importMap!, url: 'http://example.org/js/vendor/v.js' })).links), [
    'http://example.org/js/b-vendored.js', 'http://example.org/js/b-vendored.js',
  ]);
  assert.deepEqual(urlsOf(extractFromResponse(moduleResponse(vendored, { importMap: () => page.importMap! })).links), ['http://example.org/js/b.js', 'http://example.org/b.js']);
});
