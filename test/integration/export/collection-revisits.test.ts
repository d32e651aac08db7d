/**
 * A collection of revisit records alone, from WARC files written by the crawl's own writer. A
 * revisit that names no record in WARC-Refers-To (a server-not-modified revisit whose visit had no
 * record id) was copied without any response holding its payload, so a replay tool could not show
 * it, and the collection was handed out as whole; now the response with its payload digest comes
 * along. A revisit whose payload no response in the crawl holds fails the collection, naming it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WarcWriter, sha1Digest, verifyCdxj, verifyWarcFile } from '../../../worker/warc';
import { writeCollection } from '../../../worker/export/collection-export';
import { makeExchange } from '../../unit/warc/make-exchange';
import { withTempDir } from '../../support/temp-dir';

test('a revisit without WARC-Refers-To brings the response with its payload; one whose payload the crawl lacks is refused, named', async () => {
  await withTempDir('tm-collection-revisits-', async (dir) => {
    const warcDir = join(dir, 'warcs');
    const writer = new WarcWriter({ dir: warcDir, crawlId: 'revisits', software: 'Tidemark/test', robotsPolicy: 'obey', userAgent: 'tidemark-test', threads: 1 });
    await writer.open();
    const body = Buffer.from('<p>the harbour at low tide</p>');
    const visit = await writer.writeCapture(makeExchange({ url: 'http://127.0.0.1:9/harbour', body }));
    const payloadDigest = sha1Digest(body);
    const unnamed = await writer.writeRevisit(makeExchange({ url: 'http://127.0.0.1:9/harbour', status: 304, reason: 'Not Modified' }), {
      uri: 'http://127.0.0.1:9/harbour', date: visit.date, payloadDigest,
    }, 'server-not-modified');
    const orphan = await writer.writeRevisit(makeExchange({ url: 'http://127.0.0.1:9/quay', body }), {
      uri: 'http://127.0.0.1:9/elsewhere', date: visit.date, recordId: '<urn:uuid:00000000-0000-4000-8000-000000000000>', payloadDigest: sha1Digest(Buffer.from('never captured')),
    }, 'identical-payload-digest');
    await writer.close();
    const sourceFiles = readdirSync(warcDir).filter((n) => n.endsWith('.warc.gz'));
    const collect = (chosen: string[], outDir: string) => writeCollection({
      sources: [{ dir: warcDir, files: sourceFiles }], outDir: join(dir, outDir), prefix: outDir,
      chosen: new Set(chosen), revisitDigests: new Set([payloadDigest, sha1Digest(Buffer.from('never captured'))]), description: 'revisits', onProgress: () => undefined,
    });

    const names = await collect([unnamed.recordId], 'unnamed');
    const check = await verifyWarcFile(join(dir, 'unnamed', names[0]!));
    assert.deepEqual(check.errors, []);
    assert.deepEqual(check.types, { warcinfo: 2, revisit: 1, request: 1, response: 1 }, 'the revisit, its request, and the response holding its payload');
    const index = await verifyCdxj(join(dir, 'unnamed', 'index.cdxj'), join(dir, 'unnamed'));
    assert.deepEqual(index.errors, []);
    assert.equal(index.lines, 2, 'the response is indexed, so a replay tool finds the payload');

    await assert.rejects(collect([unnamed.recordId, orphan.recordId], 'orphan'), (err: Error) => {
      assert.match(err.message, /^1 selected revisit record\(s\) repeat a payload that no response in the crawl's WARC files holds \(first: http:\/\/127\.0\.0\.1:9\/quay in .*referring to <urn:uuid:00000000-0000-4000-8000-000000000000>\): a replay tool could not show them$/);
      return true;
    });
    assert.deepEqual(readdirSync(dir).sort(), ['unnamed', 'warcs'], 'the refused collection leaves nothing behind');
  });
});
