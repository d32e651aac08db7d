/**
 * A crawl of an internationalised host name, end to end: the CLI given a seed under `.localhost` in
 * its own script (`bücher.localhost`), which RFC 6761 reserves for the loopback and browsers and curl
 * resolve so, while getaddrinfo answered "not found" and the seed failed as `dns`. Its links written
 * in capitals, with the root's trailing dot or in punycode are the same host; the request's Host,
 * WARC-Target-URI and the CDXJ key hold it in punycode, as browsers send it and pywb looks it up.
 * Real parts: the CLI as a child process, a loopback site on the address `localhost` resolves to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { lookup } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTempDir } from '../../support/temp-dir';
import { runCli } from '../../support/run-cli';
import { warcTargets } from '../../support/warc-targets';

test('a seed on bücher.localhost is crawled: its links in any spelling of the host are one host, archived and indexed in punycode', { timeout: 60_000 }, async () => {
  const hostsAsked: string[] = [];
  const site = createServer((req, res) => {
    hostsAsked.push(req.headers.host ?? '');
    const port = (site.address() as AddressInfo).port;
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (req.url === '/') {
      const links = [`http://BÜCHER.localhost:${port}/gross`, `http://bücher.localhost.:${port}/punkt`, `http://xn--bcher-kva.localhost:${port}/puny`, '/%C3%BCber'];
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(links.map((l) => `<a href="${l}">${l}</a>`).join(' '));
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<title>${req.url}</title>`);
  });
  const { address } = await lookup('localhost');
  await new Promise<void>((r) => site.listen(0, address, r));
  const port = (site.address() as AddressInfo).port;
  const host = `xn--bcher-kva.localhost:${port}`;
  try {
    await withTempDir('tm-idn-localhost-', async (dir) => {
      const out = join(dir, 'out');
      const run = await runCli(['crawl', '--seed', `http://bücher.localhost:${port}/`, '--out', out, '--no-politeness', '--json']).done;
      assert.equal(run.code, 0, run.stderr);
      const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { pages: number; failures: number; excluded: number; seedProblems: unknown[] };
      assert.deepEqual(summary.seedProblems, []);
      assert.deepEqual([summary.failures, summary.excluded], [0, 0]);
      const pages = ['/', '/gross', '/punkt', '/puny', '/%C3%BCber'];
      assert.deepEqual(new Set(hostsAsked), new Set([host]), 'every request named the host in punycode, without the dot');
      const targets = (await warcTargets(out, ['response'])).filter((u) => !u.endsWith('/robots.txt')).sort();
      // The origin's /favicon.ico too (scope.includeFavicon), asked for under the punycode host as well.
      assert.deepEqual(targets, ['/', '/%C3%BCber', '/favicon.ico', '/gross', '/punkt', '/puny'].map((p) => `http://${host}${p}`));
      const keys = readFileSync(join(out, 'index.cdxj'), 'utf8').trim().split('\n').map((l) => l.split(' ', 1)[0]!).filter((k) => !k.endsWith('/robots.txt'));
      assert.deepEqual(keys.sort(), [...pages, '/favicon.ico'].map((p) => `localhost,xn--bcher-kva:${port})${p.toLowerCase()}`).sort());
    });
  } finally {
    site.closeAllConnections();
    site.close();
  }
});

// Found by an exploratory session: a seed written with the root's trailing dot had its page captured
// and its own links refused as out-of-scope-host (the scope kept the dot), and `localhost.` was
// refused as private-address (the seed's host was resolved with the dot, which /etc/hosts lacks).
test('a seed written with the root\'s trailing dot is crawled as the host without it', { timeout: 60_000 }, async () => {
  const site = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/' ? '<a href="/a">a</a> <a href="/b">b</a>' : `<title>${req.url}</title>`);
  });
  const { address } = await lookup('localhost');
  await new Promise<void>((r) => site.listen(0, address, r));
  const port = (site.address() as AddressInfo).port;
  try {
    for (const seed of [`http://bücher.localhost.:${port}/`, `http://LOCALHOST.:${port}/`]) {
      await withTempDir('tm-idn-dot-', async (dir) => {
        const out = join(dir, 'out');
        const run = await runCli(['crawl', '--seed', seed, '--out', out, '--no-politeness', '--json']).done;
        assert.equal(run.code, 0, run.stderr);
        const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { pages: number; failures: number; excluded: number; seedProblems: unknown[] };
        assert.deepEqual([summary.seedProblems, summary.failures, summary.excluded], [[], 0, 0], seed);
        const host = seed.includes('bücher') ? `xn--bcher-kva.localhost:${port}` : `localhost:${port}`;
        const targets = (await warcTargets(out, ['response'])).filter((u) => !u.endsWith('/robots.txt')).sort();
        assert.deepEqual(targets, ['/', '/a', '/b', '/favicon.ico'].map((p) => `http://${host}${p}`), seed);
      });
    }
  } finally {
    site.closeAllConnections();
    site.close();
  }
});
