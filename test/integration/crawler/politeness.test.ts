import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureSite } from '../../support/fixture-site';
import { runCli } from '../../support/run-cli';

const DELAY_MS = 250;

test('politeness: one request at a time per IP, gaps ≥ the delay, two hostnames on one IP share the clock', { timeout: 120_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 8, delayMs: 30, robots: 'User-agent: *\nCrawl-delay: 0.1\n' });
  const port = new URL(site.origin).port;
  const out = mkdtempSync(join(tmpdir(), 'tm-polite-'));
  const icdPath = join(out, 'icd.json');
  // 127.0.0.1 and localhost are two host names for one address: they must share one clock.
  writeFileSync(icdPath, JSON.stringify({
    name: 'Polite',
    seeds: [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`],
    politeness: { minDelayMs: DELAY_MS, maxDelayMs: 5000, delayFactor: 0, concurrency: 8 },
  }));
  try {
    const run = await runCli(['crawl', icdPath, '--out', out, '--json']).done;
    assert.equal(run.code, 0, run.stderr);
    const requests = site.requests;
    const hosts = new Set(requests.map((r) => r.host));
    assert.ok(hosts.size === 2, `both host names were crawled: ${[...hosts].join(', ')}`);
    assert.ok(requests.length >= 16, `pages of both host names fetched (${requests.length})`);
    const sorted = [...requests].sort((a, b) => a.at - b.at);
    for (let i = 1; i < sorted.length; i++) {
      const previous = sorted[i - 1]!;
      const current = sorted[i]!;
      assert.ok(previous.end !== undefined && previous.end <= current.at, `never two in flight: ${previous.path} and ${current.path}`);
      // 5 ms of slack for the timer granularity of two processes' clocks on one machine.
      assert.ok(current.at - previous.end! >= DELAY_MS - 5, `gap ${current.at - previous.end!} ms between ${previous.host}${previous.path} and ${current.host}${current.path}`);
    }
  } finally {
    await site.close();
  }
});
