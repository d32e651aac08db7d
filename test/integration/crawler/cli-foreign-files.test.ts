import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureSite } from '../../support/fixture-site';
import { runCli } from '../../support/run-cli';
import { readZip } from '../../support/read-wacz';
import { withTempDir } from '../../support/temp-dir';

// Before, a crawl's start "recovered" every *.warc.gz.open in --out: another tool's file being
// written (Heritrix names its files so) was cut back to its first record, renamed and indexed as
// Tidemark's; and --wacz packaged every *.warc.gz of the folder as the crawl's.
test("another tool's WARC files (and a .spool folder) in --out are left as they are, and stay out of the crawl's index and package", { timeout: 90_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 4 });
  try {
    await withTempDir('tm-cli-foreign-', async (dir) => {
      // A WARC file with responses this crawl's database never saw: an earlier crawl's.
      const earlier = join(dir, 'earlier');
      const first = await runCli(['crawl', '--seed', `${site.origin}/`, '--out', earlier, '--no-politeness', '--json']).done;
      assert.equal(first.code, 0, first.stderr);
      const warc = readdirSync(earlier).find((f) => f.endsWith('.warc.gz'))!;
      const out = join(dir, 'out');
      const foreign = ['IAH-20261128000000-00000-heritrix.warc.gz.open', 'wget.warc.gz', 'tidemark-1-notes.warc.gz.open'];
      const bytes = readFileSync(join(earlier, warc));
      mkdirSync(out);
      for (const name of foreign) writeFileSync(join(out, name), bytes);
      // A folder of the user's with a name any tool might use: the crawl's spool is a folder of its own.
      mkdirSync(join(out, '.spool'));
      writeFileSync(join(out, '.spool', 'notes.txt'), 'mine');

      const run = await runCli(['crawl', '--seed', `${site.origin}/`, '--out', out, '--no-politeness', '--wacz', '--json']).done;
      assert.equal(run.code, 0, run.stderr);
      for (const name of foreign) assert.ok(readFileSync(join(out, name)).equals(bytes), `${name} untouched`);
      assert.equal(readFileSync(join(out, '.spool', 'notes.txt'), 'utf8'), 'mine', 'the .spool folder untouched');
      const index = readFileSync(join(out, 'index.cdxj'), 'utf8');
      assert.doesNotMatch(index, /heritrix|wget|notes/, 'the index names only the crawl\'s files');
      const entries = [...(await readZip(readFileSync(join(out, 'crawl.wacz')))).keys()].filter((n) => n.startsWith('archive/'));
      assert.equal(entries.length, 1, entries.join(', '));
      assert.match(entries[0]!, /^archive\/tidemark-1-\d{14}-00000\.warc\.gz$/);
    });
  } finally {
    await site.close();
  }
});
