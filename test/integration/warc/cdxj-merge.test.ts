/**
 * Merging sorted CDXJ files (a collection's index of several crawls' indexes) gives what sorting all
 * their lines in memory gave, repeats kept; an index in UTF-16 order (an earlier version's sort,
 * which put U+E000–U+FFFF after characters past U+FFFF) is sorted on disk rather than merged out of
 * order; the external sort leaves no run behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareBytewise, INDEX_NAME, mergeSortedFiles, sortFilesInto, UnsortedSource } from '../../../worker/warc/cdxj-index';
import { writeMergedIndex } from '../../../worker/export/export-sources';
import type { ReadySource } from '../../../worker/export/export-sources';
import { withTempDir } from '../../support/temp-dir';

/** Lines of one source: keys with ASCII, U+E000 and astral characters, some repeated across sources. */
function sourceLines(n: number, k: number): string[] {
  const marks = ['a', '\u{e000}', '\u{1f600}', 'z'];
  return Array.from({ length: n }, (_, i) => `org,example)/${marks[(i * 7 + k) % 4]}${(i * 7919 + k * 31) % (n / 2)} 20260101000000 {"k":${k % 3}}`);
}

test('sorted files of hundreds of sources merge into what one sort of all their lines gives, repeats kept', async () => {
  await withTempDir('tm-cdxj-merge-', async (dir) => {
    const all: string[] = [];
    const paths: string[] = [];
    for (let k = 0; k < 300; k++) {
      const lines = sourceLines(40, k).sort(compareBytewise);
      all.push(...lines);
      paths.push(join(dir, `s${k}`));
      writeFileSync(paths.at(-1)!, lines.join('\n') + '\n');
    }
    await mergeSortedFiles(paths, join(dir, 'out'));
    assert.equal(readFileSync(join(dir, 'out'), 'utf8'), all.sort(compareBytewise).join('\n') + '\n');
  });
});

test('an index in UTF-16 order is not merged out of order: the merged index is sorted on disk, as one sort of all lines', async () => {
  await withTempDir('tm-cdxj-merge-', async (dir) => {
    const sources: ReadySource[] = [];
    const all: string[] = [];
    for (let k = 0; k < 3; k++) {
      const lines = sourceLines(2000, k);
      all.push(...lines);
      const warcDir = join(dir, `crawl-${k}`);
      mkdirSync(warcDir);
      // The first crawl's index sorted as JavaScript's sort() did: U+E000 after the astral characters.
      writeFileSync(join(warcDir, INDEX_NAME), (k === 0 ? [...lines].sort() : lines.sort(compareBytewise)).join('\n') + '\n');
      sources.push({ crawlId: k, warcDir, closeLeftOpen: async () => undefined, definition: '{}', names: [], warcs: [] });
    }
    await assert.rejects(mergeSortedFiles(sources.map((s) => join(s.warcDir, INDEX_NAME)), join(dir, 'merged')), UnsortedSource);
    const out = join(dir, 'out');
    mkdirSync(out);
    await writeMergedIndex(sources, out);
    assert.equal(readFileSync(join(out, INDEX_NAME), 'utf8'), all.sort(compareBytewise).join('\n') + '\n');
    assert.deepEqual(readdirSync(out), [INDEX_NAME], 'no run left behind');
  });
});

test('the external sort of a file larger than its runs gives one sort of its lines, and removes its runs', async () => {
  await withTempDir('tm-cdxj-merge-', async (dir) => {
    const lines = Array.from({ length: 5 }, (_, k) => sourceLines(1000, k)).flat();
    writeFileSync(join(dir, 'unsorted'), lines.join('\n'));
    await sortFilesInto([join(dir, 'unsorted')], join(dir, 'sorted'), dir, { runBytes: 20_000 });
    assert.equal(readFileSync(join(dir, 'sorted'), 'utf8'), lines.sort(compareBytewise).join('\n') + '\n');
    assert.deepEqual(readdirSync(dir).sort(), ['sorted', 'unsorted']);
  });
});
