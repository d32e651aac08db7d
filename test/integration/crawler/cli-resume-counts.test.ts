import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startFixtureSite } from '../../support/fixture-site';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';

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

test('a resumed crawl keeps its settings unless a flag names them again, and says so when other seeds are given', { timeout: 60_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 30 });
  try {
    await withTempDir('tm-resume-flags-', async (out) => {
      const run = async (...extra: string[]) => {
        const done = await runCli(['crawl', '--seed', `${site.origin}/`, '--out', out, '--no-politeness', ...extra]).done;
        assert.equal(done.code, 0, done.stderr.slice(-1000));
        return done;
      };
      const pages = () => {
        const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
        const n = db.prepare("SELECT COUNT(*) FROM Capture WHERE url NOT LIKE '%/robots.txt'").pluck().get() as number;
        db.close();
        return n;
      };
      await run('--max-pages', '5', '--json');
      const first = pages();
      assert.ok(first > 0 && first <= 5, `${first} pages within the budget of 5`);
      // Run again without --max-pages: the stored budget of 5 holds (it became the default 10,000 and crawled on).
      await run('--json');
      assert.equal(pages(), first);
      // A flag given again changes what it names.
      await run('--max-pages', '12', '--json');
      assert.ok(pages() > first && pages() <= 12, `${pages()} pages within the new budget of 12`);
      // Other seeds for the same --out: the stored crawl resumes, and the CLI says the seeds are not used.
      const other = await runCli(['crawl', '--seed', 'http://127.0.0.1:9/elsewhere', '--out', out, '--no-politeness']).done;
      assert.equal(other.code, 0, other.stderr);
      assert.match(other.stderr, /holds a crawl of http:\/\/127\.0\.0\.1:\d+\/; resuming it \(the seeds given now are not used/);
      // With --json too, where it is also in the summary a script reads.
      const otherJson = await runCli(['crawl', '--seed', 'http://127.0.0.1:9/elsewhere', '--out', out, '--no-politeness', '--json']).done;
      assert.equal(otherJson.code, 0, otherJson.stderr);
      assert.match(otherJson.stderr, /holds a crawl of http:\/\/127\.0\.0\.1:\d+\/; resuming it/);
      assert.match(JSON.parse(otherJson.stdout.trim().split('\n').pop()!).resumeNotice, /^\/.* holds a crawl of http:\/\/127\.0\.0\.1:\d+\/; resuming it \(the seeds given now are not used/);
      // The same seed from an ICD file with other settings: the stored ICD goes on, and the CLI says so.
      const icdFile = join(out, 'other-settings.json');
      writeFileSync(icdFile, JSON.stringify({ name: 'Other settings', seeds: [`${site.origin}/`], scope: { maxDepth: 1 } }));
      const otherIcd = await runCli(['crawl', icdFile, '--out', out, '--no-politeness']).done;
      assert.equal(otherIcd.code, 0, otherIcd.stderr);
      assert.match(otherIcd.stderr, /holds a crawl of the same seeds with other settings; resuming it with its stored ICD/);
      // The same crawl given again: nothing to say.
      const same = await runCli(['crawl', '--seed', `${site.origin}/`, '--out', out, '--no-politeness']).done;
      assert.equal(same.code, 0, same.stderr);
      assert.doesNotMatch(same.stderr, /holds a crawl/);
    });
  } finally {
    await site.close();
  }
});

test('a crawl ended by its size limit goes on when the ICD file given again raises scope.maxBytes, as its summary advises', { timeout: 60_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 30 });
  try {
    await withTempDir('tm-resume-limits-', async (out) => {
      const icdFile = join(out, 'sz.json');
      const write = (scope: Record<string, unknown>) => writeFileSync(icdFile, JSON.stringify({ name: 'sz', seeds: [`${site.origin}/`], scope, politeness: { enabled: false } }));
      write({ maxBytes: 1000 });
      const first = await runCli(['crawl', icdFile, '--out', out]).done;
      assert.equal(first.code, 0, first.stderr.slice(-1000));
      assert.match(first.stdout, /ended by its size limit with \d+ URLs queued: raise scope\.maxBytes in .*sz\.json .*and run the same command again to go on/);
      const pages = () => {
        const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
        const n = db.prepare("SELECT COUNT(*) FROM Capture WHERE url NOT LIKE '%/robots.txt'").pluck().get() as number;
        db.close();
        return n;
      };
      const before = pages();
      // Following the advice: the file's larger limit is taken (it was ignored, and the crawl could never go on).
      write({ maxBytes: 100_000_000, maxPages: 20 });
      const second = await runCli(['crawl', icdFile, '--out', out, '--json']).done;
      assert.equal(second.code, 0, second.stderr.slice(-1000));
      const summary = JSON.parse(second.stdout.trim().split('\n').at(-1)!) as { endedBy?: string; resumeNotice?: string };
      // Not by the size limit again: by the file's new page limit, 20 of the site's 30 pages.
      assert.equal(summary.endedBy, 'page-limit');
      assert.equal(summary.resumeNotice, undefined);
      assert.match(second.stderr, /resuming the crawl in .* with scope\.maxPages 10000 → 20, scope\.maxBytes 1000 → 100000000/);
      assert.ok(pages() > before && pages() <= 20, `${pages()} pages: more than ${before}, within the file's new maxPages of 20`);
    });
  } finally {
    await site.close();
  }
});

test('a crawl ended by its page limit says so, with the URLs left, and goes on with a larger --max-pages', { timeout: 60_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 30 });
  try {
    await withTempDir('tm-page-limit-', async (out) => {
      const crawl = async (...extra: string[]) => {
        const done = await runCli(['crawl', '--seed', `${site.origin}/`, '--out', out, '--no-politeness', ...extra]).done;
        assert.equal(done.code, 0, done.stderr.slice(-1000));
        return done;
      };
      // It said "finished" and nothing more, with the site's other pages left queued unmentioned.
      const text = await crawl('--max-pages', '5');
      assert.match(text.stdout, /ended by its page limit with \d+ URLs queued: run the same command again with a larger --max-pages to go on/);
      const first = JSON.parse((await crawl('--max-pages', '5', '--json')).stdout.trim().split('\n').at(-1)!) as { endedBy?: string; queued?: number };
      assert.equal(first.endedBy, 'page-limit');
      assert.ok(first.queued! > 0, `${first.queued} URLs queued`);
      // Following the advice, the crawl ends on its own: no limit named.
      const all = JSON.parse((await crawl('--max-pages', '1000', '--json')).stdout.trim().split('\n').at(-1)!) as { endedBy?: string; queued?: number; pages: number };
      assert.equal(all.endedBy, undefined);
      assert.equal(all.queued, undefined);
      assert.ok(all.pages > 30, `${all.pages} captures: the 30 pages and robots.txt`);
    });
  } finally {
    await site.close();
  }
});

test('the same seeds given in another order resume the crawl with no notice', { timeout: 60_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 4 });
  try {
    await withTempDir('tm-resume-order-', async (out) => {
      const [a, b] = site.pages;
      const first = await runCli(['crawl', '--seed', a!, '--seed', b!, '--out', out, '--no-politeness', '--json']).done;
      assert.equal(first.code, 0, first.stderr.slice(-1000));
      const again = await runCli(['crawl', '--seed', b!, '--seed', a!, '--out', out, '--no-politeness', '--json']).done;
      assert.equal(again.code, 0, again.stderr.slice(-1000));
      assert.doesNotMatch(again.stderr, /holds a crawl/);
      assert.equal((JSON.parse(again.stdout.trim().split('\n').at(-1)!) as { resumeNotice?: string }).resumeNotice, undefined);
    });
  } finally {
    await site.close();
  }
});
