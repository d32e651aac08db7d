/**
 * A selection of a later crawl's captures, collected with the earlier crawl's files as a source
 * too: its revisits bring the earlier crawl's responses holding their payloads (one named in
 * WARC-Refers-To, one found by its payload digest alone), a response repeating an earlier payload
 * is copied as it is, and the records come in the order the in-memory plan gave them (each source
 * file's warcinfo, then its records in file order; the earlier crawl's file first). Real WARC files
 * written by the crawl's own writer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { WarcWriter, sha1Digest, verifyCdxj, verifyWarcFile } from '../../../worker/warc';
import { writeCollection } from '../../../worker/export/collection-export';
import { makeExchange } from '../../unit/warc/make-exchange';
import { withTempDir } from '../../support/temp-dir';

const writerIn = (dir: string, crawlId: string) => new WarcWriter({ dir, crawlId, software: 'Tidemark/test', robotsPolicy: 'obey', userAgent: 'tidemark-test', threads: 1 });

/** Type and record id of each record of a .warc.gz, in file order. */
function recordsOf(path: string): string[] {
  const text = gunzipSync(readFileSync(path)).toString('latin1');
  return [...text.matchAll(/^WARC\/1\.[01]\r\n([\s\S]*?)\r\n\r\n/gm)].map((m) => {
    const type = /^WARC-Type: (\S+)/m.exec(m[1]!)![1];
    const id = /^WARC-Record-ID: (\S+)/m.exec(m[1]!)![1];
    return `${type} ${id}`;
  });
}

test("a later crawl's selection brings the earlier crawl's responses its revisits repeat, in the plan's order", async () => {
  await withTempDir('tm-collection-across-crawls-', async (dir) => {
    const harbourBody = Buffer.from('<p>the harbour at low tide</p>');
    const quayBody = Buffer.from('<p>the quay at high tide</p>');
    const earlierDir = join(dir, 'earlier');
    const earlier = writerIn(earlierDir, 'earlier');
    await earlier.open();
    const harbour = await earlier.writeCapture(makeExchange({ url: 'http://127.0.0.1:9/harbour', body: harbourBody }));
    const quay = await earlier.writeCapture(makeExchange({ url: 'http://127.0.0.1:9/quay', body: quayBody }));
    await earlier.close();

    const laterDir = join(dir, 'later');
    const later = writerIn(laterDir, 'later');
    await later.open();
    const harbourAgain = await later.writeRevisit(makeExchange({ url: 'http://127.0.0.1:9/harbour', body: harbourBody }), {
      uri: 'http://127.0.0.1:9/harbour', date: harbour.date, recordId: harbour.recordId, payloadDigest: sha1Digest(harbourBody),
    }, 'identical-payload-digest');
    // The same payload as the earlier harbour, at another URL: a response of its own.
    const pier = await later.writeCapture(makeExchange({ url: 'http://127.0.0.1:9/pier', body: harbourBody }));
    const quayAgain = await later.writeRevisit(makeExchange({ url: 'http://127.0.0.1:9/quay', status: 304, reason: 'Not Modified' }), {
      uri: 'http://127.0.0.1:9/quay', date: quay.date, payloadDigest: sha1Digest(quayBody),
    }, 'server-not-modified');
    await later.close();

    const warcsIn = (d: string) => readdirSync(d).filter((n) => n.endsWith('.warc.gz'));
    const sources = [{ dir: earlierDir, files: warcsIn(earlierDir) }, { dir: laterDir, files: warcsIn(laterDir) }];
    const [earlierFile, laterFile] = sources.map((s) => join(s.dir, s.files[0]!));
    const outDir = join(dir, 'collection');
    const names = await writeCollection({
      sources, outDir, prefix: 'across', description: 'the later crawl',
      chosen: new Set([harbourAgain.recordId, pier.recordId, quayAgain.recordId]), revisitDigests: new Set([sha1Digest(harbourBody), sha1Digest(quayBody)]),
      onProgress: () => undefined,
    });
    assert.deepEqual(names, ['across-00000.warc.gz', 'index.cdxj']);
    assert.deepEqual(readdirSync(outDir).sort(), ['across-00000.warc.gz', 'index.cdxj'], 'no scratch file left');
    const written = recordsOf(join(outDir, names[0]!));
    const earlierRecords = recordsOf(earlierFile!);
    const laterRecords = recordsOf(laterFile!);
    const of = (records: string[], id: string) => records.filter((r) => r.endsWith(` ${id}`));
    assert.deepEqual(written.slice(1), [
      // The earlier crawl's file: its warcinfo, and the two responses the revisits repeat (not their requests).
      earlierRecords[0],
      `response ${harbour.recordId}`,
      `response ${quay.recordId}`,
      // The later crawl's file: its warcinfo, then every record of the chosen captures in file order.
      laterRecords[0],
      ...laterRecords.slice(1),
    ]);
    assert.match(written[0]!, /^warcinfo /, "the collection's own warcinfo first");
    assert.deepEqual(of(laterRecords, harbourAgain.recordId), [`revisit ${harbourAgain.recordId}`]);
    assert.deepEqual(of(laterRecords, pier.recordId), [`response ${pier.recordId}`]);

    const check = await verifyWarcFile(join(outDir, names[0]!));
    assert.deepEqual(check.errors, []);
    const index = await verifyCdxj(join(outDir, 'index.cdxj'), outDir);
    assert.deepEqual(index.errors, []);
    assert.equal(index.lines, 5, 'two responses of the earlier crawl, two revisits and a response of the later');
  });
});
