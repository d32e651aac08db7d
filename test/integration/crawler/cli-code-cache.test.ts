/**
 * bin/tidemark.js runs the CLI's bundle with V8's code cache of the previous run. V8 takes a cache
 * only under the flags it was made with: the CLI sets one at start (bounded-regexp.ts), and a cache
 * made after that was refused at every start, so each run compiled the bundle afresh and wrote a new
 * cache after its crawl. Real parts: the CLI as users run it, its bundle and cache folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../../support/run-cli';

const root = resolve('.');
const cacheDir = join(root, 'node_modules/.cache/tidemark', createHash('sha1').update(root).digest('hex').slice(0, 12));

/** The code caches in the CLI's cache folder, with when each was last written. */
function codeCaches(): Map<string, number> {
  return new Map(readdirSync(cacheDir).filter((f) => f.endsWith('.v8-cache')).map((f) => [f, statSync(join(cacheDir, f)).mtimeMs]));
}

async function crawlNothing(): Promise<void> {
  // A seed on a port nothing listens on: a whole run of the CLI in a second or two, exit code 0.
  const run = await runCli(['crawl', '--seed', 'http://127.0.0.1:9/', '--out', mkdtempSync(join(tmpdir(), 'tm-code-cache-')), '--json']).done;
  assert.equal(run.code, 0, run.stderr);
}

test("the CLI's code cache is taken by the next run, not made again at every run", { timeout: 120_000 }, async () => {
  await crawlNothing(); // builds the bundle if its sources changed, and its cache
  await crawlNothing(); // a run that takes the cache
  const before = codeCaches();
  assert.equal(before.size, 1, `one code cache for the bundle: ${[...before.keys()].join(', ')}`);
  await crawlNothing();
  assert.deepEqual(codeCaches(), before, 'the cache was taken as it was, not written again');
});
