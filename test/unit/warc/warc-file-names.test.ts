import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlWarcId, highestSerial, isWarcFileOf, warcFilename } from '../../../worker/warc/recover-open-files';

test("a crawl's WARC files are known by their names; other tools' and other crawls' are not", () => {
  const id = crawlWarcId(1);
  const ours = warcFilename(id, new Date('2026-11-28T10:00:00Z'), 7);
  assert.equal(ours, 'tidemark-1-20261128100000-00007.warc.gz');
  assert.ok(isWarcFileOf(id, ours));
  assert.ok(isWarcFileOf(id, `${ours}.open`));
  for (const name of ['IAH-20261128000000-00000-heritrix.warc.gz.open', 'wget.warc.gz', 'tidemark-1-notes.warc.gz.open', 'tidemark-12-20261128100000-00000.warc.gz', `${ours}.open.tmp`, `x-${ours}`]) {
    assert.equal(isWarcFileOf(id, name), false, name);
  }
  assert.equal(highestSerial(id, [ours, 'tidemark-1-20261128100000-00009.warc.gz.open', 'tidemark-12-20261128100000-00099.warc.gz', 'IAH-20261128000000-00050-x.warc.gz']), 9);
  assert.equal(highestSerial(id, ['wget.warc.gz']), -1);
});
