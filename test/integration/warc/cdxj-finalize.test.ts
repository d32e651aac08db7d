import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
