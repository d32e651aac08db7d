/**
 * A collection's progress while it scans the crawl's files. Before, it moved once a whole file was
 * scanned: a crawl's files rotate at a gigabyte, so an export of a crawl with one file showed 0%
 * until its scan was over. Now it moves with the bytes scanned. Real parts: a WARC file written by
 * the crawl's own writer, the collection written from it and read back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WarcWriter, verifyWarcFile } from '../../../worker/warc';
import { writeCollection } from '../../../worker/export/collection-export';
import { makeExchange } from '../../unit/warc/make-exchange';
import { withTempDir } from '../../support/temp-dir';

test('a collection reports its progress within a file while it scans it, rising to 1', async () => {
  await withTempDir('tm-collection-progress-', async (dir) => {
    const warcDir = join(dir, 'warcs');
    const writer = new WarcWriter({ dir: warcDir, crawlId: 'progress', software: 'Tidemark/test', robotsPolicy: 'obey', userAgent: 'tidemark-test', threads: 1 });
    await writer.open();
    const chosen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const at = await writer.writeCapture(makeExchange({ url: `http://127.0.0.1:9/berth/${i}`, body: Buffer.from(`<p>berth ${i} ${'tide '.repeat(200 + i)}</p>`) }));
      if (i % 10 === 0) chosen.add(at.recordId);
    }
    await writer.close();
    const files = readdirSync(warcDir).filter((n) => n.endsWith('.warc.gz'));
    assert.equal(files.length, 1, 'one file, as a crawl of less than a gigabyte has');

    const reported: number[] = [];
    const names = await writeCollection({
      sources: [{ dir: warcDir, files }], outDir: join(dir, 'collection'), prefix: 'collection-progress',
      chosen, revisitDigests: new Set(), description: 'every tenth berth', onProgress: (f) => reported.push(f),
    });
    const scanning = reported.filter((f) => f > 0 && f < 0.5);
    assert.ok(scanning.length >= 10, `progress moves while the file is scanned (${scanning.length} reports below 50%)`);
    assert.deepEqual(reported, [...reported].sort((a, b) => a - b), 'it never goes back');
    assert.equal(reported.at(-1), 1);
    const check = await verifyWarcFile(join(dir, 'collection', names[0]!));
    assert.deepEqual(check.errors, []);
    assert.equal(check.types.response, chosen.size);
  });
});
