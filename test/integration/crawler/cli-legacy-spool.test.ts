import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureSite } from '../../support/fixture-site';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';

// CLI crawls spooled large bodies in --out/.spool before that folder became .tidemark-spool. A run
// of such a version that was killed left its bodies there (33 MB for 4 fetches of 20 MB under way),
// and the current CLI resumed and finished the crawl without ever removing them.
test("the spooled bodies an older version left in --out/.spool are removed when the crawl is resumed; the user's files there stay", { timeout: 90_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 3 });
  try {
    await withTempDir('tm-cli-legacy-spool-', async (dir) => {
      const crawl = (out: string) => runCli(['crawl', '--seed', `${site.origin}/`, '--out', out, '--no-politeness', '--json']).done;
      const leftover = () => `body-${randomUUID()}.bin`;
      for (const withUserFile of [false, true]) {
        const out = join(dir, withUserFile ? 'mixed' : 'spool-only');
        const first = await crawl(out);
        assert.equal(first.code, 0, first.stderr);
        // What an old version killed mid-fetch left: bodies named as the spool names them.
        const spool = join(out, '.spool');
        mkdirSync(spool);
        const bodies = [leftover(), leftover()];
        for (const name of bodies) writeFileSync(join(spool, name), Buffer.alloc(100_000, 7));
        if (withUserFile) writeFileSync(join(spool, 'notes.txt'), 'mine');

        const resumed = await crawl(out);
        assert.equal(resumed.code, 0, resumed.stderr);
        if (withUserFile) {
          assert.deepEqual(readdirSync(spool), ['notes.txt'], 'only the spooled bodies are removed');
          assert.equal(readFileSync(join(spool, 'notes.txt'), 'utf8'), 'mine');
        } else {
          assert.ok(!existsSync(spool), 'the emptied .spool folder is removed');
        }
      }
    });
  } finally {
    await site.close();
  }
});
