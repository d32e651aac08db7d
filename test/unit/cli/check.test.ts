import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTargets, formatFileCheck, type PathLister } from '../../../worker/cli/check';

/** A file system of folders (name → file names) and files. */
function lister(folders: Record<string, string[]>, files: string[]): PathLister {
  return {
    isDirectory: (p) => (p in folders ? true : files.includes(p) ? false : null),
    list: (dir) => [...folders[dir]!],
  };
}

test("a folder is its WARC files (open ones too), then its indexes, then its packages, by name; other files are passed over", () => {
  const fs = lister({ out: ['tidemark-state.db', 'index.cdxj', 'b.warc.gz', 'a.warc.gz', 'c.warc.gz.open', 'objects.jsonl', 'crawl.wacz'] }, []);
  assert.deepEqual(checkTargets(['out'], fs), {
    targets: [
      { path: 'out/a.warc.gz', kind: 'warc' },
      { path: 'out/b.warc.gz', kind: 'warc' },
      { path: 'out/c.warc.gz.open', kind: 'warc' },
      { path: 'out/index.cdxj', kind: 'cdxj' },
      { path: 'out/crawl.wacz', kind: 'wacz' },
    ],
    problems: [],
  });
});

test('files are taken by their names; each path that cannot be checked is named', () => {
  const fs = lister({ empty: ['notes.txt'] }, ['x.warc.gz', 'y.warc', 'i.cdxj', 'p.wacz', 'icd.json']);
  const { targets, problems } = checkTargets(['x.warc.gz', 'y.warc', 'i.cdxj', 'p.wacz', 'icd.json', 'gone', 'empty'], fs);
  assert.deepEqual(targets, [{ path: 'x.warc.gz', kind: 'warc' }, { path: 'y.warc', kind: 'warc' }, { path: 'i.cdxj', kind: 'cdxj' }, { path: 'p.wacz', kind: 'wacz' }]);
  assert.equal(problems.length, 3);
  assert.match(problems[0]!, /^icd\.json: not a WARC file/);
  assert.match(problems[1]!, /^gone: no such file or folder/);
  assert.match(problems[2]!, /^empty: holds no WARC file/);
});

test('the report says ok with the record types, or FAIL with the first ten problems and how many more', () => {
  assert.deepEqual(formatFileCheck({ path: 'a.warc.gz', kind: 'warc', count: 1200, types: { warcinfo: 1, response: 1199 }, errors: [], warnings: [] }), [
    'ok    a.warc.gz: 1,200 records (warcinfo 1, response 1,199)',
  ]);
  const errors = Array.from({ length: 12 }, (_, i) => `record ${i}: WARC-Block-Digest mismatch`);
  assert.deepEqual(formatFileCheck({ path: 'c.wacz', kind: 'wacz', count: 3, files: 5, types: { warcinfo: 1, response: 2 }, errors: [], warnings: [] }), [
    'ok    c.wacz: 5 files, 3 records (warcinfo 1, response 2)',
  ]);
  const lines = formatFileCheck({ path: 'index.cdxj', kind: 'cdxj', count: 40, errors, warnings: [] });
  assert.equal(lines[0], 'FAIL  index.cdxj: 40 index lines, 12 problems');
  assert.equal(lines.length, 1 + 10 + 1);
  assert.equal(lines[10], '      record 9: WARC-Block-Digest mismatch');
  assert.match(lines[11]!, /… and 2 more/);
  // Warnings (another tool's way, no damage) leave the file ok.
  const warned = formatFileCheck({ path: 'w.warc.gz', kind: 'warc', count: 3, errors: [], warnings: ['record 2 at 817: WARC-Payload-Digest is of the chunked body'] });
  assert.deepEqual(warned, ['ok    w.warc.gz: 3 records, 1 warning', '      warning: record 2 at 817: WARC-Payload-Digest is of the chunked body']);
});
