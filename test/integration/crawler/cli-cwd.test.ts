import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureSite } from '../../support/fixture-site';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';

// The CLI finds its migrations and knowledge base beside its code, and takes a relative --out from
// the current folder, whatever that folder is (the other CLI tests run from the repository).
test('the CLI run from a folder outside the repository crawls into a relative --out there', { timeout: 60_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 4 });
  try {
    await withTempDir('tm-cli-cwd-', async (cwd) => {
      const run = await runCli(['crawl', '--seed', `${site.origin}/`, '--out', 'crawl', '--no-politeness', '--json'], { cwd }).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      const summary = JSON.parse(run.stdout) as { outcome: string; pages: number; out: string };
      assert.equal(summary.outcome, 'finished');
      assert.equal(summary.out, join(cwd, 'crawl'));
      assert.ok(summary.pages >= 5, `${summary.pages} pages`);
      assert.ok(existsSync(join(cwd, 'crawl', 'index.cdxj')));
      assert.ok(readdirSync(join(cwd, 'crawl')).some((f) => f.endsWith('.warc.gz')));
      assert.deepEqual(readdirSync(cwd), ['crawl'], 'nothing else written in the current folder');
    });
  } finally {
    await site.close();
  }
});
