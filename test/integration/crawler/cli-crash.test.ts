import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startFixtureSite } from '../../support/fixture-site';
import { runCli } from '../../support/run-cli';
import { verifyWarcFile, verifyCdxj, parseCdxjLine } from '../../../worker/warc';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('SIGKILL the CLI mid-crawl, run it again with the same --out: every page captured exactly once, every WARC whole', { timeout: 180_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 120, delayMs: 15 });
  const out = mkdtempSync(join(tmpdir(), 'tm-cli-crash-'));
  try {
    const first = runCli(['crawl', '--seed', `${site.origin}/`, '--out', out, '--no-politeness', '--concurrency', '4', '--json']);
    // Kill once a good share of the site is in, while pages are in flight.
    const deadline = Date.now() + 60_000;
    while (site.requests.length < 40 && Date.now() < deadline) await sleep(20);
    first.child.kill('SIGKILL');
    const killed = await first.done;
    assert.equal(killed.signal, 'SIGKILL', `killed mid-crawl (stderr: ${killed.stderr.slice(-500)})`);
    assert.ok(readdirSync(out).some((n) => n.endsWith('.warc.gz.open')), 'a WARC file was left open by the kill');

    const second = await runCli(['crawl', '--seed', `${site.origin}/`, '--out', out, '--no-politeness', '--concurrency', '4', '--json']).done;
    assert.equal(second.code, 0, second.stderr);
    const summary = JSON.parse(second.stdout.trim().split('\n').pop()!);
    assert.equal(summary.outcome, 'finished');

    const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
    const rows = db.prepare('SELECT url, COUNT(*) AS n FROM Capture GROUP BY url').all() as { url: string; n: number }[];
    db.close();
    const counts = new Map(rows.map((r) => [r.url, r.n]));
    for (const page of site.pages) assert.equal(counts.get(page), 1, `${page} captured exactly once`);

    const warcs = readdirSync(out).filter((n) => n.endsWith('.warc.gz'));
    assert.ok(warcs.length >= 2, 'the resumed run started a new WARC file');
    assert.equal(readdirSync(out).filter((n) => n.endsWith('.open')).length, 0, 'no file left open');
    for (const name of warcs) {
      const check = await verifyWarcFile(join(out, name));
      assert.deepEqual(check.errors, [], `${name} reads to the end with valid digests`);
    }
    const index = await verifyCdxj(join(out, 'index.cdxj'), out);
    assert.deepEqual(index.errors, []);
    assert.ok(index.lines >= site.pages.length);
    // Exactly once in the WARC files too: the cut on resume dropped records never acknowledged.
    const perUrl = new Map<string, number>();
    for (const line of readFileSync(join(out, 'index.cdxj'), 'utf8').split('\n').filter(Boolean)) {
      const url = parseCdxjLine(line)!.json.url;
      perUrl.set(url, (perUrl.get(url) ?? 0) + 1);
    }
    for (const page of site.pages) assert.equal(perUrl.get(page), 1, `${page} has exactly one record in the WARC files`);
  } finally {
    await site.close();
  }
});
