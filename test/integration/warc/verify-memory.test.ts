/**
 * Verifying a WARC file holds a few bytes per record, not the records' headers: a list of every
 * record's summary took about 1 KB a record (300 MB of heap for a file of 150 MB of small pages,
 * gigabytes for one of 1 GB, which a crawl of small pages fills before it rotates), and an export,
 * a WACZ package or `tidemark check` verifies each file. Real parts: the crawl's WARC writer, a file on disk.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { WarcWriter, verifyWarcFile } from '../../../worker/warc';
import { makeExchange } from '../../unit/warc/make-exchange';
import { withTempDir } from '../../support/temp-dir';

test('the heap a verification holds stays far below what the file\'s record headers take', { timeout: 120_000 }, async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  await withTempDir('tm-verify-memory-', async (dir) => {
    const writer = new WarcWriter({ crawlId: 'small-pages', software: 'Tidemark/test', robotsPolicy: 'obey', userAgent: 'tidemark-test', dir, threads: 1, gzipLevel: 1 });
    await writer.open();
    const captures = 12_000;
    // Handed to the writer a few hundred at a time, as a crawl's many fetches do (one at a time, its
    // hashing and compression never overlapped: 11 s of the test's 20).
    let pending: Promise<unknown>[] = [];
    for (let i = 0; i < captures; i++) {
      const url = `http://host-${i % 500}.test/news/2026/12/01/article-${i}.html`;
      pending.push(writer.writeCapture(makeExchange({ url, body: Buffer.from(`<title>Article ${i}</title><a href="/a/${i}">next</a>`) }), { metadata: { outlinks: [{ url: `http://host-${i % 500}.test/a/${i}`, hop: 'L', tag: 'a/@href' }] } }));
      if (pending.length >= 256) {
        await Promise.all(pending);
        pending = [];
      }
    }
    await Promise.all(pending);
    await writer.close();
    const [file] = readdirSync(dir).filter((n) => n.endsWith('.warc.gz'));

    gc();
    const before = process.memoryUsage().heapUsed;
    let held = 0;
    // What stays alive while it reads (each sample after a collection): not the garbage of each record.
    const sampler = setInterval(() => {
      gc();
      held = Math.max(held, process.memoryUsage().heapUsed - before);
    }, 25);
    const check = await verifyWarcFile(join(dir, file!));
    clearInterval(sampler);

    assert.deepEqual(check.errors, []);
    assert.equal(check.records, 1 + 3 * captures);
    // ~235 bytes now, the read's buffers included; ~980 when every record's summary was kept.
    const perRecord = held / check.records;
    assert.ok(perRecord < 500, `${Math.round(perRecord)} bytes of heap held per record (${(held / 1e6).toFixed(1)} MB for ${check.records} records)`);
  });
});
