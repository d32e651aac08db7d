import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startFixtureSite } from '../../support/fixture-site';
import { runCli } from '../../support/run-cli';

test('the summary counts every capture, robots.txt included, the same when a finished crawl is run again', { timeout: 60_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 6 });
  const out = mkdtempSync(join(tmpdir(), 'tm-counts-'));
  try {
    const summaryOf = async () => {
      const run = await runCli(['crawl', '--seed', `${site.origin}/`, '--out', out, '--no-politeness', '--json']).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { pages: number; bytes: number; pagesPerSecond: number };
    };
    const first = await summaryOf();
    const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
    const stored = db.prepare('SELECT COUNT(*) AS n, SUM(size) AS bytes FROM Capture').get() as { n: number; bytes: number };
    const robots = db.prepare("SELECT COUNT(*) AS n FROM Capture WHERE url LIKE '%/robots.txt'").pluck().get() as number;
    db.close();
    assert.equal(robots, 1);
    assert.deepEqual({ pages: first.pages, bytes: first.bytes }, { pages: stored.n, bytes: stored.bytes }, 'the live counters are the captures');
    const again = await summaryOf();
    assert.deepEqual({ pages: again.pages, bytes: again.bytes }, { pages: first.pages, bytes: first.bytes }, 'resumed: the counters continue where they were');
    assert.ok(first.pagesPerSecond > 0);
    // It was 40,000-odd pages/s: the whole crawl's pages over the seconds of a run that fetched none.
    assert.equal(again.pagesPerSecond, 0, 'the rate is of the pages this run fetched');
  } finally {
    rmSync(out, { recursive: true, force: true });
    await site.close();
  }
});
