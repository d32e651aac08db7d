/**
 * A page whose archived payload is a decompression bomb, refetched unchanged by recrawl rounds (the
 * same payload digest, or a 304 to the round's conditional GET): an unchanged page is not read again,
 * and such a refetch was logged `ok`, as if the page had become readable. Its outcome stays the
 * archived one, `decompression-bomb`, counted among the failures, whether the bomb was found by the
 * first visit or by an earlier round. Real parts: a migrated SQLite database, the engine on a
 * shortened minute, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

test('recrawls: an unchanged page that is a decompression bomb keeps the outcome decompression-bomb, same bytes or 304', { timeout: 60_000 }, async () => {
  // 4 MiB of spaces in a few KiB: over the ICD's 1 MiB cap once decoded.
  const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
  const gzipped = { 'content-type': 'text/html', 'content-encoding': 'gzip' };
  const { listener: site, requests } = countedSite((path, n, req, res) => {
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/bomb">bomb</a> <a href="/etag-bomb">etag</a> <a href="/later">later</a>');
    // A bomb from the first visit on, always the same bytes, no validators.
    if (path === '/bomb') return void res.writeHead(200, gzipped).end(bomb);
    // The same with an ETag: not modified once the rounds ask with it.
    if (path === '/etag-bomb') {
      if (req.headers['if-none-match'] === '"b1"') return void res.writeHead(304, { etag: '"b1"' }).end();
      return void res.writeHead(200, { ...gzipped, etag: '"b1"' }).end(bomb);
    }
    // Readable at the visit, a bomb from round 1 on (changed then, unchanged after).
    if (path === '/later') return n === 1 ? void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>soon a bomb</p>') : void res.writeHead(200, gzipped).end(bomb);
    res.writeHead(404).end();
  });
  const fields = { name: 'Unchanged bombs', limits: { maxDecodedBytes: 1024 * 1024 }, coherence: { recrawlIntervalMinutes: 1 } };
  await withSiteCrawl('tm-recrawl-bomb-unchanged-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const first = engine();
    const run = first.run();
    const rounds = () => first.incremental?.rounds.length ?? 0;
    // Unchanged in round 1, the pages are due again in round 3 (the round that sends /etag-bomb's ETag).
    for (const end = Date.now() + 40_000; rounds() < 4 && Date.now() < end; ) await sleep(20);
    await first.stop();
    assert.equal(await run, 'stopped');
    assert.ok(rounds() >= 4, `four rounds ran (${rounds()})`);
    const log = db.prepare("SELECT url, status, outcome, message FROM CrawlLogEntry WHERE crawlId = ? AND message LIKE 'recrawl round %' ORDER BY id").all(crawlId) as { url: string; status: number | null; outcome: string; message: string }[];
    const of = (path: string) => log.filter((l) => l.url === origin + path);
    for (const path of ['/bomb', '/etag-bomb', '/later']) {
      assert.ok(of(path).length >= 2, `${path} refetched at least twice: ${JSON.stringify(of(path))}`);
      assert.deepEqual(of(path).map((l) => l.outcome), of(path).map(() => 'decompression-bomb'), `${path}: every refetch keeps the bomb's outcome: ${JSON.stringify(of(path))}`);
    }
    assert.ok(of('/etag-bomb').some((l) => l.status === 304), `a round got a 304 for /etag-bomb: ${JSON.stringify(of('/etag-bomb'))}`);
    assert.ok(of('/bomb').every((l) => /unchanged, not read: the body decodes to more than 1048576 bytes$/.test(l.message)), JSON.stringify(of('/bomb')));
    assert.ok(of('/later').slice(1).every((l) => /unchanged, not read/.test(l.message)), JSON.stringify(of('/later')));
    assert.ok((requests.get('/bomb') ?? 0) >= 3);
    // Counted among the failures, each of them (the two visits' bombs too), live and restored on resume.
    const bombs = db.prepare("SELECT COUNT(*) FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'decompression-bomb'").pluck().get(crawlId) as number;
    assert.equal(bombs, 2 + log.length - of('/').length);
    assert.equal(first.stats().failedByReason['decompression-bomb'], bombs);
    const resumed = engine();
    const again = resumed.run();
    await resumed.stop();
    await again;
    const now = db.prepare("SELECT COUNT(*) FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'decompression-bomb'").pluck().get(crawlId) as number;
    assert.equal(resumed.stats().failedByReason['decompression-bomb'], now, 'the counters restored on resume');
  });
});
