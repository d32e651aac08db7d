/**
 * A page at the depth limit is archived with its whole module graph and its whole chain of
 * `@import`-ed stylesheets, however deep: a browser loads them as one script and one stylesheet,
 * so a module's imports and a sheet's `@import`s count no embed hop of their own. Found by a
 * differential exploration (Chromium live against ReplayWeb.page on the WARC): with maxDepth 0 the
 * 4th module and the 4th stylesheet of a chain answered 404 in replay. What a stylesheet embeds
 * still counts, so the 4th embed hop is still cut. The crawl is stopped by its page budget part-way
 * and resumed, as the CLI resumes a crawl in its --out: the hops are read again from the frontier.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

const CHAIN = 6;

/** `/m1.js` imports `/m2.js` … up to `/m6.js`; `/s1.css` @imports `/s2.css` … up to `/s6.css`, whose image ends it. */
const SITE: Record<string, [type: string, body: string]> = {
  '/': ['text/html', '<title>Deep graphs</title><script type="module" src="/m1.js"></script><link rel="stylesheet" href="/s1.css"><iframe src="/frame.html"></iframe><a href="/next">next</a>'],
  '/frame.html': ['text/html', '<title>Frame</title><link rel="stylesheet" href="/f1.css"><iframe src="/inner.html"></iframe>'],
  // Page → iframe → its stylesheet, @import-ed twice → that sheet's image: three embed hops.
  '/f1.css': ['text/css', '@import "/f2.css";'],
  '/f2.css': ['text/css', '@import url(/f3.css);'],
  '/f3.css': ['text/css', 'div { background: url(/f3.png) }'],
  // Page → iframe → iframe → its stylesheet → that sheet's image: the 4th hop, cut.
  '/inner.html': ['text/html', '<title>Inner</title><link rel="stylesheet" href="/inner.css">'],
  '/inner.css': ['text/css', 'p { background: url(/inner.png) }'],
  '/next': ['text/html', '<title>Next</title>'],
};
for (let i = 1; i <= CHAIN; i++) {
  SITE[`/m${i}.js`] = ['text/javascript', i < CHAIN ? `import { x } from './m${i + 1}.js'; export const y = x;` : 'export const x = 1;'];
  SITE[`/s${i}.css`] = ['text/css', i < CHAIN ? `@import "s${i + 1}.css"; .s${i} { color: red }` : 'body { background: url(/end.png) }'];
}

const site: RequestListener = (req, res) => {
  const entry = SITE[req.url!];
  if (entry) return void res.writeHead(200, { 'content-type': entry[0] }).end(entry[1]);
  if (req.url!.endsWith('.png')) return void res.writeHead(200, { 'content-type': 'image/png' }).end('png');
  res.writeHead(404).end();
};

test('with maxDepth 0, a module graph and an @import chain 6 deep are captured whole, across a resume; the 4th embed hop is still cut', { timeout: 90_000 }, async () => {
  await withSite(site, async (origin) => {
    await withTempDir('tm-import-graphs-', async (dir) => {
      const icd = join(dir, 'icd.json');
      const out = join(dir, 'out');
      writeFileSync(icd, JSON.stringify({ name: 'deep graphs', seeds: [`${origin}/`], politeness: { enabled: false }, scope: { maxDepth: 0 } }));
      // The budget stops the first run within the graphs; the second goes on from the frontier it left.
      for (const budget of ['4', '100']) {
        const run = await runCli(['crawl', icd, '--out', out, '--max-pages', budget, '--json']).done;
        assert.equal(run.code, 0, run.stderr.slice(-1000));
      }
      const captured = new Set(
        readFileSync(join(out, 'index.cdxj'), 'utf8').trim().split('\n').map((line) => (JSON.parse(line.slice(line.indexOf('{'))) as { url: string }).url),
      );
      const graphs = [...Array.from({ length: CHAIN }, (_, i) => [`/m${i + 1}.js`, `/s${i + 1}.css`]).flat(), '/end.png', '/frame.html', '/f1.css', '/f2.css', '/f3.css', '/f3.png', '/inner.html', '/inner.css'];
      assert.deepEqual(graphs.filter((p) => !captured.has(`${origin}${p}`)), [], 'every module, every @import-ed sheet and what they embed captured');
      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      try {
        const row = db.prepare('SELECT kind, reason FROM frontier_url WHERE url = ?');
        assert.deepEqual(row.get(`${origin}/inner.png`), { kind: 'requisite', reason: 'max-depth' }, 'the 4th embed hop is cut');
        assert.deepEqual(row.get(`${origin}/next`), { kind: 'navigation', reason: 'max-depth' }, 'the seed\'s link is past the limit');
        assert.deepEqual(row.get(`${origin}/m5.js`), { kind: 'import', reason: null }, 'a module\'s import is kept as such');
        assert.deepEqual(row.get(`${origin}/s2.css`), { kind: 'import', reason: null }, 'so is a sheet\'s @import');
      } finally {
        db.close();
      }
    });
  });
});
