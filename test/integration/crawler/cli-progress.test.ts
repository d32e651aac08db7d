import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureSite } from '../../support/fixture-site';
import { runCli } from '../../support/run-cli';

const PROGRESS = /^tidemark: (\d+):(\d\d):(\d\d) {2}([\d,]+) pages {2}[\d.]+ MB {2}([\d,]+) queued {2}\d+ in flight {2}\d+ failed {2}(\d+) excluded {2}[\d.]+ pages\/s$/;

// A long crawl says how it goes on stderr, and its summary says why pages were left out.
test('the CLI reports the progress of a running crawl on stderr and lists exclusions in its summary', { timeout: 60_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 16, delayMs: 100, robots: 'User-agent: *\nDisallow: /page/3.html\n' });
  const dir = mkdtempSync(join(tmpdir(), 'tm-cli-progress-'));
  try {
    // One request at a time, 100 ms each: the crawl takes about 1.7 s, so several reports come.
    const run = await runCli(['crawl', '--seed', `${site.origin}/`, '--out', join(dir, 'out'), '--no-politeness', '--concurrency', '1', '--progress', '0.25']).done;
    assert.equal(run.code, 0, run.stderr);
    const reports = run.stderr.split('\n').filter((l) => l.startsWith('tidemark: ')).map((l) => {
      const m = PROGRESS.exec(l);
      assert.ok(m, `a progress line: ${l}`);
      return { seconds: Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]), pages: Number(m[4]!.replace(/,/g, '')), queued: Number(m[5]!.replace(/,/g, '')) };
    });
    assert.ok(reports.length >= 3, `several reports in a crawl of ~1.7 s:\n${run.stderr}`);
    for (let i = 1; i < reports.length; i++) {
      assert.ok(reports[i]!.pages >= reports[i - 1]!.pages, 'pages only grow');
      assert.ok(reports[i]!.seconds >= reports[i - 1]!.seconds, 'time only grows');
    }
    assert.ok(reports.at(-1)!.pages > reports[0]!.pages, 'the count moves while the crawl runs');
    assert.ok(reports.some((r) => r.queued > 0), 'the queue is shown while there is one');
    assert.ok(!run.stderr.includes('\r'), 'no terminal control when stderr is not a terminal');
    // /, /page/0.html to /page/15.html but page 3 (disallowed), robots.txt and /favicon.ico.
    assert.match(run.stdout, /^finished: 18 pages, /m);
    assert.match(run.stdout, /^excluded: robots 1$/m);

    // --json keeps stderr quiet unless progress is asked for.
    const quiet = await runCli(['crawl', '--seed', `${site.origin}/`, '--out', join(dir, 'again'), '--no-politeness', '--max-pages', '3', '--json']).done;
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stderr, '');
    assert.equal(JSON.parse(quiet.stdout).excludedByReason.robots ?? 0, 0);
  } finally {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// Before, only a crawl paused by a full disk (say) told how to go on; one interrupted with Ctrl-C
// ended "paused: … pages" with exit code 3 and nothing about resuming.
test('a crawl interrupted with Ctrl-C says how to resume it', { timeout: 60_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 40, delayMs: 100 });
  const dir = mkdtempSync(join(tmpdir(), 'tm-cli-resume-hint-'));
  try {
    const run = runCli(['crawl', '--seed', `${site.origin}/`, '--out', join(dir, 'out'), '--no-politeness', '--concurrency', '1']);
    const deadline = Date.now() + 20_000;
    while (site.requests.filter((r) => r.path.startsWith('/page/')).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    run.child.kill('SIGINT');
    const stopped = await run.done;
    assert.equal(stopped.code, 3, stopped.stderr);
    assert.match(stopped.stdout, /^paused: \d+ pages, /m);
    assert.match(stopped.stdout, /^Run the same command again to resume\.$/m);
  } finally {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
