import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalizeIndex, INDEX_NAME, OPEN_INDEX_NAME } from '../../../worker/warc/cdxj-index';

/** CDXJ-like lines in a shuffled order (the order captures finish in). */
function lines(n: number, prefix: string): string[] {
  return Array.from({ length: n }, (_, i) => `org,example)/${prefix}${String((i * 7919) % n).padStart(5, '0')} 20261124000000 {"offset":"${i}"}`);
}

function withDir(run: (dir: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-cdxj-'));
    try {
      await run(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** Writes an earlier session's index (when given) and the open index, finalizes, returns index.cdxj. */
async function finalized(dir: string, earlier: string[] | null, openText: string, runBytes?: number): Promise<string> {
  if (earlier) writeFileSync(join(dir, INDEX_NAME), earlier.join('\n') + '\n');
  writeFileSync(join(dir, OPEN_INDEX_NAME), openText);
  await finalizeIndex(dir, runBytes);
  return readFileSync(join(dir, INDEX_NAME), 'utf8');
}

test('one run and no earlier index: the open index becomes index.cdxj, sorted, nothing left behind', withDir(async (dir) => {
  const open = lines(3000, 'a');
  // The last line has no newline (a session cut short while appending still keeps it).
  assert.equal(await finalized(dir, null, open.join('\n')), [...open].sort().join('\n') + '\n');
  assert.deepEqual(readdirSync(dir), [INDEX_NAME]);
}));

test('several runs and the index of an earlier session are merged into one sorted index', withDir(async (dir) => {
  const earlier = lines(500, 'b').sort();
  const open = lines(2000, 'a');
  // Runs of ~10 KB: the 2,000 lines (~110 KB) make about ten.
  assert.equal(await finalized(dir, earlier, open.join('\n') + '\n\n', 10_000), [...earlier, ...open].sort().join('\n') + '\n');
  assert.deepEqual(readdirSync(dir), [INDEX_NAME]);
}));

test('a single run is merged with an earlier index rather than replacing it', withDir(async (dir) => {
  const earlier = lines(10, 'z').sort();
  const open = lines(10, 'a');
  assert.equal(await finalized(dir, earlier, open.join('\n') + '\n'), [...open, ...earlier].sort().join('\n') + '\n');
}));

test('a finalisation stopped after index.cdxj took its lines, before the open index was removed, does not list them twice', withDir(async (dir) => {
  // The state a crash (or a full disk) between the rename and the removal leaves: the open index
  // still holds every line index.cdxj took; the next session appended more to it.
  const merged = lines(400, 'c').sort();
  const more = lines(50, 'd');
  const text = await finalized(dir, merged, [...merged].reverse().concat(more).join('\n') + '\n');
  assert.equal(text, [...merged, ...more].sort().join('\n') + '\n');
}));

test('lines are sorted in the byte order of their UTF-8, which pywb binary-searches, in one run and when runs are merged', withDir(async (dir) => {
  // U+FF5E is EF BD 9E in UTF-8, before U+1F600's F0 9F 98 80; as UTF-16 code units (0xFF5E against
  // the surrogate 0xD83D) a bare sort() puts it after. The lines differ only there (two copies of one file).
  const line = (name: string, i: number) => `org,example)/p${i} 20261124000000 {"offset":"0","filename":"x-${name}.warc.gz"}`;
  const open = [0, 1, 2].flatMap((i) => [line('\u{1F600}', i), line('\uFF5E', i)]);
  const expected = [0, 1, 2].flatMap((i) => [line('\uFF5E', i), line('\u{1F600}', i)]).join('\n') + '\n';
  assert.equal(await finalized(dir, null, open.join('\n') + '\n'), expected);
  rmSync(join(dir, INDEX_NAME));
  // Runs of one line each: the merge compares them the same way.
  assert.equal(await finalized(dir, null, open.join('\n') + '\n', 10), expected);
}));

test('an empty open index (a run of a finished crawl) leaves index.cdxj as it was, not written again', withDir(async (dir) => {
  const earlier = lines(300, 'e').sort();
  writeFileSync(join(dir, INDEX_NAME), earlier.join('\n') + '\n');
  const before = statSync(join(dir, INDEX_NAME));
  for (const openText of ['', '\n\n']) {
    writeFileSync(join(dir, OPEN_INDEX_NAME), openText);
    await finalizeIndex(dir);
    const after = statSync(join(dir, INDEX_NAME));
    // Written again, it would be a new file (the merge renames a temporary file over it).
    assert.equal(after.ino, before.ino);
    assert.equal(readFileSync(join(dir, INDEX_NAME), 'utf8'), earlier.join('\n') + '\n');
    assert.deepEqual(readdirSync(dir), [INDEX_NAME]);
  }
}));
