/**
 * A crawled page cannot make the crawler reach the network it runs in: a requisite, a redirect and a
 * sitemap named by robots.txt on addresses of another kind than the seed's are not requested, each
 * logged as `private-address` saying how to allow it, while the seed's own loopback site is crawled.
 * 0.0.0.0 (unspecified: a connection to it reaches the crawler's own host) stands for the intranet
 * here: the test site on 127.0.0.1 answers it, so the allowed run shows those URLs really fetched.
 * Real parts: the CLI as a child process, a loopback site, the crawl's SQLite database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { serveLoopback } from '../../support/loopback-site';
import { withTempDir } from '../../support/temp-dir';

const METADATA = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/role';

async function hostileSite(): Promise<{ origin: string; inner: string; paths: string[] }> {
  const paths: string[] = [];
  let inner = '';
  const origin = await serveLoopback((req, res) => {
    paths.push(`${req.headers.host} ${req.url}`);
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`Sitemap: ${inner}/sitemap.xml\n`);
    // An image redirecting there: a requisite's redirect is followed off the scope.
    if (req.url === '/logo.png') return void res.writeHead(302, { location: `${inner}/redirected` }).end();
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<img src="${METADATA}"><img src="${inner}/secret.png"><img src="/logo.png">`);
    res.writeHead(200, { 'content-type': req.url === '/sitemap.xml' ? 'application/xml' : 'text/plain' }).end(req.url === '/sitemap.xml' ? '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>' : 'inner');
  });
  inner = origin.replace('127.0.0.1', '0.0.0.0');
  return { origin, inner, paths };
}

function crawlLog(out: string): { url: string; outcome: string; message: string | null }[] {
  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  try {
    return db.prepare('SELECT url, outcome, message FROM CrawlLogEntry ORDER BY id').all() as { url: string; outcome: string; message: string | null }[];
  } finally {
    db.close();
  }
}

test('a page on a loopback seed cannot make the crawler request 0.0.0.0 or 169.254.169.254: refused as private-address; scope.allowPrivateAddresses fetches them', { timeout: 120_000 }, async () => {
  const site = await hostileSite();
  const { origin, inner } = site;
  await withTempDir('tm-private-addresses-', async (out) => {
    const icd = join(out, 'icd.json');
    writeFileSync(icd, JSON.stringify({ name: 'hostile', seeds: [`${origin}/`], politeness: { enabled: false } }));
    const run = await runCli(['crawl', icd, '--out', join(out, 'default'), '--json']).done;
    assert.equal(run.code, 0, run.stderr.slice(-1000));
    const log = crawlLog(join(out, 'default'));
    const refused = log.filter((e) => e.outcome === 'private-address');
    assert.deepEqual(refused.map((e) => e.url).sort(), [METADATA, `${inner}/redirected`, `${inner}/secret.png`, `${inner}/sitemap.xml`].sort());
    for (const e of refused) assert.match(e.message ?? '', /^(0\.0\.0\.0|169\.254\.169\.254) is an? .*address.*: not requested.*scope\.allowPrivateAddresses: true allows it\)$/, e.url);
    assert.match(refused.find((e) => e.url === METADATA)!.message!, /link-local address \(where cloud metadata services answer\)/);
    // The seed's own network is crawled as before; nothing reached the site through 0.0.0.0.
    assert.ok(log.some((e) => e.url === `${origin}/logo.png` && e.outcome === 'ok'), JSON.stringify(log));
    assert.deepEqual(site.paths.filter((p) => p.startsWith('0.0.0.0')), []);
  });

  await withTempDir('tm-private-addresses-allowed-', async (out) => {
    const icd = join(out, 'icd.json');
    // The metadata address stays out by an exclude pattern: this test must not reach a real one.
    writeFileSync(icd, JSON.stringify({ name: 'intranet', seeds: [`${origin}/`], politeness: { enabled: false }, scope: { allowPrivateAddresses: true, exclude: ['^http://169\\.254\\.'] } }));
    site.paths.length = 0;
    const run = await runCli(['crawl', icd, '--out', join(out, 'run'), '--json']).done;
    assert.equal(run.code, 0, run.stderr.slice(-1000));
    const log = crawlLog(join(out, 'run'));
    assert.deepEqual(log.filter((e) => e.outcome === 'private-address'), []);
    for (const path of ['/secret.png', '/redirected', '/sitemap.xml']) assert.ok(log.some((e) => e.url === `${inner}${path}` && e.outcome === 'ok'), `${path}: ${JSON.stringify(log)}`);
    assert.ok(site.paths.some((p) => p.startsWith('0.0.0.0') && p.endsWith('/secret.png')), site.paths.join(' '));
  });
});
