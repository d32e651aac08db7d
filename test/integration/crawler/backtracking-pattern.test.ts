import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../support/run-cli';

// `(a|a)*\.html$` passes the ICD's star-height check, yet on a path of 40 a's that does not end in
// .html it backtracks 2^40 times: before the process bounded backtracking, this crawl never ended.
test('an exclude pattern that backtracks exponentially on a link still lets the crawl finish, with the right verdict', { timeout: 120_000 }, async () => {
  const longPath = `/${'a'.repeat(40)}.htm`;
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    if (req.url === '/') res.end(`<a href="${longPath}">long</a> <a href="/${'a'.repeat(40)}.html">excluded</a>`);
    else if (req.url === longPath) res.end('<p>kept</p>');
    else if (req.url === '/robots.txt') res.writeHead(404).end();
    else res.end('<p>should not be fetched</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'tm-backtrack-'));
  try {
    const icd = join(dir, 'icd.json');
    writeFileSync(icd, JSON.stringify({
      name: 'Backtracking exclude',
      seeds: [`${origin}/`],
      scope: { exclude: ['(a|a)*\\.html$'] },
      politeness: { minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 },
    }));
    const run = await runCli(['crawl', icd, '--out', join(dir, 'out'), '--json']).done;
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as { outcome: string; pages: number; excludedByReason: Record<string, number> };
    assert.equal(summary.outcome, 'finished');
    // robots.txt (its 404 is archived too), the seed, its site's /favicon.ico and the .htm page; the .html link is excluded.
    assert.equal(summary.pages, 4, run.stdout);
    assert.deepEqual(summary.excludedByReason, { 'exclude-match': 1 });
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// The focused crawl's URL-pattern weights and spam-list `re:` entries are compiled case-insensitive,
// and V8's linear engine takes no `i` flag: before they were folded to case-sensitive patterns,
// each of these held the crawl (the flag alone left them backtracking 2^40 times).
test('a URL-pattern weight and a blacklist entry that backtrack exponentially still let a focused crawl finish', { timeout: 120_000 }, async () => {
  const a40 = `/${'a'.repeat(40)}.htm`;
  const b40 = `/${'b'.repeat(40)}.htm`;
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    if (req.url === '/') res.end(`<p>harbour tides</p><a href="${a40}">harbour</a> <a href="${b40}">tides</a>`);
    else if (req.url === '/robots.txt') res.writeHead(404).end();
    else res.end('<p>harbour tides and more harbour tides</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'tm-backtrack-focus-'));
  let cli: ReturnType<typeof runCli> | undefined;
  try {
    const icd = join(dir, 'icd.json');
    writeFileSync(icd, JSON.stringify({
      name: 'Backtracking focus patterns',
      seeds: [`${origin}/`],
      politeness: { minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 },
      focus: {
        enabled: true,
        keywords: [{ term: 'harbour', weight: 1 }],
        urlPatterns: [{ pattern: '(A|a)*\\.HTML$', weight: 0.5 }],
        blacklist: ['re:(B|b)*\\.HTML$'],
      },
    }));
    cli = runCli(['crawl', icd, '--out', join(dir, 'out'), '--json']);
    const run = await Promise.race([cli.done, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the crawl did not end within 90 s')), 90_000).unref())]);
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as { outcome: string; pages: number };
    assert.equal(summary.outcome, 'finished');
    // robots.txt, the seed, /favicon.ico and both links: neither pattern matches a path ending in .htm.
    assert.equal(summary.pages, 5, run.stdout);
  } finally {
    // A crawl held by a pattern would outlive the test.
    if (cli && cli.child.exitCode === null) cli.child.kill('SIGKILL');
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
