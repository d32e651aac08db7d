/**
 * A custom error page (an HTML 404 or 503) is shown by a browser with its stylesheet, images and
 * scripts, and its replay should look the same: those are captured as requisites, where before only
 * the origin's icon was. Its navigation links are still not followed, and an error answered without
 * HTML (plain text) loads nothing. The real CLI against a site on loopback.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { runCli } from '../../support/run-cli';
import { serveOn } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

const NOT_FOUND_PAGE = '<title>Not here</title><link rel="stylesheet" href="/site.css"><img src="/logo.png" alt="logo">'
  + '<script src="/menu.js"></script><p>This page has moved. <a href="/from-404">Home</a>';
const MAINTENANCE_PAGE = '<title>Back soon</title><img src="/spanner.png" alt=""><a href="/from-503">status</a>';
const PLAIN_404 = 'not found: <img src="/from-plain.png">';

test('a custom 404 or 503 page has its stylesheet, images and scripts captured, its links not followed; a plain-text 404 loads nothing', { timeout: 90_000 }, async () => {
  const requested: string[] = [];
  const site: RequestListener = (req, res) => {
    requested.push(req.url!);
    const send = (status: number, type: string, body: string) => void res.writeHead(status, { 'content-type': type }).end(body);
    switch (req.url) {
      case '/': return send(200, 'text/html', '<title>Home</title><a href="/gone">gone</a><a href="/busy">busy</a><a href="/plain">plain</a>');
      case '/gone': return send(404, 'text/html; charset=utf-8', NOT_FOUND_PAGE);
      case '/busy': return send(503, 'text/html', MAINTENANCE_PAGE);
      case '/plain': return send(404, 'text/plain', PLAIN_404);
      case '/site.css': return send(200, 'text/css', 'body { background: url(/paper.png) }');
      case '/logo.png': case '/spanner.png': case '/paper.png': return send(200, 'image/png', 'PNG');
      case '/menu.js': return send(200, 'text/javascript', 'void 0;');
      default: return send(404, 'text/plain', 'not found');
    }
  };
  const server = await serveOn('127.0.0.1', site);
  try {
    await withTempDir('tm-error-page-requisites-', async (dir) => {
      const out = join(dir, 'out');
      const icd = join(dir, 'icd.json');
      writeFileSync(icd, JSON.stringify({ name: 'error page requisites', seeds: [`${server.origin}/`], politeness: { enabled: false }, limits: { maxRetries: 0 } }));
      const run = await runCli(['crawl', icd, '--out', out, '--json']).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      for (const path of ['/site.css', '/logo.png', '/menu.js', '/spanner.png', '/paper.png']) {
        assert.equal(requested.filter((p) => p === path).length, 1, `${path} fetched once`);
      }
      for (const path of ['/from-404', '/from-503', '/from-plain.png']) assert.ok(!requested.includes(path), `${path} not fetched`);
      const archived = new Map(readFileSync(join(out, 'index.cdxj'), 'utf8').trim().split('\n')
        .map((line) => JSON.parse(line.slice(line.indexOf('{'))) as { url: string; status: string })
        .map((c) => [new URL(c.url).pathname, c.status]));
      assert.equal(archived.get('/gone'), '404');
      assert.equal(archived.get('/logo.png'), '200', 'the 404 page\'s image is archived for its replay');
      assert.equal(archived.get('/paper.png'), '200', 'so is what its stylesheet loads');
    });
  } finally {
    server.close();
  }
});
