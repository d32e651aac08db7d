/**
 * A page built of ES modules is archived with its whole module graph: the module its
 * `<script type="module" src>` names, what that imports and re-exports (and they in turn), a
 * literal import(), the imports of an inline module and of a modulepreload, and the addresses of
 * its import map. Without them a replay answers 404 to the first import and the page's script
 * fails. A loopback site and the real CLI; the captures are read from the crawl's index.cdxj.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { runCli } from '../../support/run-cli';
import { withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

const PAGE = `<!doctype html><title>modules</title>
<script type="importmap">{"imports": {"lib": "/js/lib.js", "dir/": "/js/libdir/"}, "scopes": {"/js/": {"lib": "/js/scoped-lib.js"}}}</script>
<link rel="modulepreload" href="/js/pre.mjs">
<script type="module" src="/js/main.mjs"></script>
<script type="module">import './inl-dep.js'; import 'dir/from-inline.js';</script>
<script src="/js/classic.js"></script>`;

/** Each module of the graph and what it says; all are captured, none is linked from the page by an anchor. */
const MODULES: Record<string, string> = {
  '/js/main.mjs': `import a from './dep-a.mjs'; import lib from 'lib'; const later = () => import('./lazy.mjs'); const no = (n) => import('./computed-' + n + '.mjs');`,
  '/js/dep-a.mjs': `import "/js/dep-b.mjs"; export * from './dep-c.mjs'; export default 1;`,
  '/js/dep-b.mjs': `import { c } from '../js/nested/dep-d.mjs'; export const b = c;`,
  '/js/dep-c.mjs': `export const c = 3;`,
  '/js/nested/dep-d.mjs': `export const c = 4;`,
  '/js/lazy.mjs': `export const lazy = true;`,
  '/js/pre.mjs': `import './pre-dep.mjs';`,
  '/js/pre-dep.mjs': `export {};`,
  '/js/lib.js': `export default 'lib';`,
  '/js/scoped-lib.js': `export default 'scoped';`,
  '/js/libdir/from-inline.js': `export {};`,
  '/inl-dep.js': `export {};`,
  '/js/classic.js': `var x = 1; function f() { return x / 2; }`,
};

test('a CLI crawl captures the module graph of a page: imports, re-exports, inline modules, modulepreload and the import map', { timeout: 90_000 }, async () => {
  const requested: string[] = [];
  const site: RequestListener = (req, res) => {
    requested.push(req.url!);
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    const source = MODULES[req.url!];
    // Two types a browser runs modules of.
    if (source !== undefined) return void res.writeHead(200, { 'content-type': req.url!.endsWith('c.mjs') ? 'application/javascript' : 'text/javascript' }).end(source);
    res.writeHead(404).end();
  };
  await withSite(site, async (origin) => {
    await withTempDir('tm-module-graph-', async (out) => {
      const run = await runCli(['crawl', '--seed', `${origin}/`, '--out', out, '--no-politeness', '--json']).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      const captured = new Map(
        readFileSync(join(out, 'index.cdxj'), 'utf8').trim().split('\n').map((line) => {
          const fields = JSON.parse(line.slice(line.indexOf('{'))) as { url: string; status: string };
          return [fields.url, fields.status] as const;
        }),
      );
      for (const path of ['/', ...Object.keys(MODULES)]) assert.equal(captured.get(`${origin}${path}`), '200', `${path} captured`);
      assert.ok(!requested.some((p) => p.startsWith('/js/computed-')), 'an import() of a computed string is not guessed');
      assert.ok(!requested.includes('/js/libdir/'), 'an import map prefix names no resource');
      // The site's icon too, as a browser asks for it (scope.includeFavicon).
      assert.deepEqual(requested.filter((p) => p !== '/robots.txt' && p !== '/favicon.ico' && !(p in MODULES) && p !== '/'), [], 'nothing else asked for');
    });
  });
});
