/**
 * A page whose first answer was cut off before a byte of its body (the connection closed after the
 * headers), then answered whole with an empty body and an ETag, then 304. The cut capture and the
 * whole one share a payload digest (that of no bytes), and the 304's server-not-modified revisit
 * record was pointed at the first response with it: the record cut by the failed fetch, or, when
 * the site's robots.txt is an empty 404 archived before, that 404. It now points at the whole 200.
 * Real parts: a migrated SQLite database, the engine on a shortened
 * minute, a loopback site, the WARC files written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSync, readSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { field, parseWarcHead } from '../../../worker/warc/parse-heads';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

/** The WARC header fields of the record a Capture row points at (one gzip member). */
function recordFields(warcDir: string, row: { warcFile: string; warcOffset: number; warcLength: number }) {
  const fd = openSync(join(warcDir, row.warcFile), 'r');
  const buf = Buffer.alloc(row.warcLength);
  readSync(fd, buf, 0, row.warcLength, row.warcOffset);
  closeSync(fd);
  const head = parseWarcHead(gunzipSync(buf));
  assert.ok(head, `no record at ${row.warcFile}:${row.warcOffset}`);
  return head.fields;
}

/** Crawls the site until two recrawl rounds ran, and checks what /p's 304 refers to; other paths answer 404 with `notFoundBody`. */
async function recrawlThrice(notFoundBody: string): Promise<void> {
  const etag = '"empty"';
  const { listener: site } = countedSite((path, n, req, res) => {
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/p">p</a>');
    if (path !== '/p') return void res.writeHead(404).end(notFoundBody);
    // The visit: headers announcing 40 bytes, then the connection closed before any.
    if (n === 1) {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '40', etag });
      res.flushHeaders();
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': 'text/html', etag }).end();
  });
  const fields = { name: 'Recrawl 304 cut digest', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-recrawl-304-cut-digest-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    for (const end = Date.now() + 40_000; (engine.incremental?.rounds.length ?? 0) < 2 && Date.now() < end; ) await sleep(5);
    await engine.stop();
    assert.equal(await run, 'stopped');
    type Row = { status: number; truncated: string | null; recordType: string; payloadDigest: string; warcRecordId: string; warcFile: string; warcOffset: number; warcLength: number };
    const captures = db.prepare('SELECT status, truncated, recordType, payloadDigest, warcRecordId, warcFile, warcOffset, warcLength FROM Capture WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, `${origin}/p`) as Row[];
    assert.ok(captures.length >= 3, `the cut visit, round 1 and round 2: ${JSON.stringify(captures)}`);
    const [cut, whole, notModified] = captures as [Row, Row, Row];
    assert.deepEqual([cut.status, cut.truncated, whole.status, whole.truncated], [200, 'disconnect', 200, null]);
    assert.equal(cut.payloadDigest, whole.payloadDigest, 'no bytes cut and no bytes whole: one digest');
    assert.deepEqual([notModified.status, notModified.recordType], [304, 'revisit']);
    // The old code took the first response with the digest: the cut visit's record.
    const refersTo = field(recordFields(warcDir, notModified), 'WARC-Refers-To');
    assert.equal(refersTo, whole.warcRecordId, refersTo === cut.warcRecordId ? 'refers to the cut visit' : 'refers to another record than the whole answer');
  });
}

test('a recrawl 304 is written as a revisit of the whole answer, not of an earlier cut one with the same payload digest', { timeout: 60_000 }, async () => {
  await recrawlThrice('not found');
});

test('a recrawl 304 is written as a revisit of the whole answer, not of an empty 404 (robots.txt) with the same payload digest', { timeout: 60_000 }, async () => {
  await recrawlThrice('');
});
