/**
 * A CLI crawl an earlier version started with settings this version refuses (an exclude pattern with
 * a repetition inside a repetition was accepted before de68208): running `tidemark crawl fixed.json`
 * on the same --out, with the setting corrected in the file, resumes it with the correction, says
 * so, and records it. Before, every run ended with exit code 2: the crawl could not be taken further.
 * Real parts: the CLI as a child process, a loopback site, the --out folder's SQLite database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startFixtureSite } from '../../support/fixture-site';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';

/** The pattern an earlier version took and this one refuses: it can take exponential time. */
const OLD_PATTERN = '(a+)+$';

test('a crawl whose stored ICD is refused resumes from an ICD file of its seeds with the refused settings corrected', { timeout: 120_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 20 });
  try {
    await withTempDir('tm-cli-icd-repair-', async (dir) => {
      const out = join(dir, 'out');
      const icdFile = (name: string, icd: Record<string, unknown>) => {
        const path = join(dir, name);
        writeFileSync(path, JSON.stringify(icd));
        return path;
      };
      const seeds = [`${site.origin}/`];
      const first = await runCli(['crawl', icdFile('first.json', { name: 'Tides', seeds, scope: { maxPages: 4, includeFavicon: false } }), '--out', out, '--no-politeness']).done;
      assert.equal(first.code, 0, first.stderr);
      const withDb = <T>(fn: (db: Database.Database) => T): T => {
        const db = new Database(join(out, 'tidemark-state.db'));
        try {
          return fn(db);
        } finally {
          db.close();
        }
      };
      // Its stored ICD as an earlier version wrote it.
      const oldDefinition = withDb((db) => {
        const stored = JSON.parse(db.prepare('SELECT definition FROM Crawl').pluck().get() as string) as { scope: { exclude: string[] } };
        stored.scope.exclude = [OLD_PATTERN];
        const definition = JSON.stringify(stored);
        db.prepare('UPDATE Crawl SET definition = ?').run(definition);
        return definition;
      });
      const pagesBefore = withDb((db) => db.prepare("SELECT url FROM Capture WHERE url NOT LIKE '%/robots.txt'").pluck().all() as string[]);
      assert.equal(pagesBefore.length, 4);

      // The file it was started with, unchanged, is refused as the invalid ICD it now is.
      const unchanged = await runCli(['crawl', icdFile('old.json', { name: 'Tides', seeds, scope: { maxPages: 4, exclude: [OLD_PATTERN] } }), '--out', out, '--no-politeness']).done;
      assert.equal(unchanged.code, 2, unchanged.stderr);
      assert.match(unchanged.stderr, /^Invalid ICD:\n {2}scope\.exclude\.0: /);
      // An ICD file of other seeds is not of this crawl.
      const otherSeeds = icdFile('other.json', { name: 'Tides', seeds: ['http://127.0.0.1:9/'], scope: { maxPages: 10 } });
      const other = await runCli(['crawl', otherSeeds, '--out', out, '--no-politeness']).done;
      assert.equal(other.code, 2, other.stderr);
      assert.equal(other.stderr, `tidemark: ${otherSeeds} is not an ICD of the crawl in ${out}: its seeds differ from the crawl's (${site.origin}/). The settings this version refuses are replaced only from an ICD file of the crawl's seeds; choose another --out for a new crawl.\n`);
      assert.equal(withDb((db) => db.prepare('SELECT definition FROM Crawl').pluck().get()), oldDefinition, 'nothing changed by a refused run');

      // Corrected: the refused pattern replaced by one that excludes pages 10 to 19, and a larger budget.
      const fixedPath = icdFile('fixed.json', { name: 'Tides', seeds, scope: { maxPages: 100, exclude: ['/page/1[0-9]\\.html$'] } });
      const fixed = await runCli(['crawl', fixedPath, '--out', out, '--no-politeness', '--json']).done;
      assert.equal(fixed.code, 0, fixed.stderr);
      assert.match(fixed.stderr, new RegExp(`^tidemark: the crawl in ${out} had settings this version refuses \\(an earlier version started it\\); resuming it with them replaced by ${fixedPath}'s: scope\\.exclude \\["\\(a\\+\\)\\+\\$"\\] → \\["/page/1\\[0-9\\]\\\\\\\\\\.html\\$"\\] \\(recorded with the crawl, in CrawlIcdReplacement\\)$`, 'm'));
      const summary = JSON.parse(fixed.stdout.trim().split('\n').at(-1)!) as { outcome: string; storedIcdReplaced: unknown };
      assert.equal(summary.outcome, 'finished');
      assert.deepEqual(summary.storedIcdReplaced, [{ field: 'scope.exclude', before: [OLD_PATTERN], after: ['/page/1[0-9]\\.html$'] }]);

      // Went on from where it was, with the corrected pattern: `/` and pages 0–9 (page 0 is linked too), each fetched once.
      const fetched = site.requests.map((r) => r.path).filter((p) => p !== '/robots.txt');
      assert.deepEqual([...fetched].sort(), ['/', ...Array.from({ length: 10 }, (_, i) => `/page/${i}.html`)].sort());
      const stored = withDb((db) => ({
        definition: JSON.parse(db.prepare('SELECT definition FROM Crawl').pluck().get() as string) as { scope: { exclude: string[]; maxPages: number } },
        history: db.prepare('SELECT source, replacedById, changes, previousDefinition FROM CrawlIcdReplacement').all() as { source: string; replacedById: null; changes: string; previousDefinition: string }[],
      }));
      assert.deepEqual(stored.definition.scope.exclude, ['/page/1[0-9]\\.html$']);
      assert.equal(stored.definition.scope.maxPages, 4, 'the stored limits stay; each run gives its own');
      assert.equal(stored.history.length, 1);
      assert.deepEqual({ ...stored.history[0], changes: JSON.parse(stored.history[0]!.changes) }, {
        source: `cli ${fixedPath}`, replacedById: null, previousDefinition: oldDefinition,
        changes: [{ field: 'scope.exclude', before: [OLD_PATTERN], after: ['/page/1[0-9]\\.html$'] }],
      });

      // Run again: the stored ICD is accepted now; nothing more is replaced or said.
      const again = await runCli(['crawl', fixedPath, '--out', out, '--no-politeness']).done;
      assert.equal(again.code, 0, again.stderr);
      assert.doesNotMatch(again.stderr + again.stdout, /refuses/);
      assert.equal(withDb((db) => db.prepare('SELECT COUNT(*) FROM CrawlIcdReplacement').pluck().get()), 1);
    });
  } finally {
    await site.close();
  }
});
