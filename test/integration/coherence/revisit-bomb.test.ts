/**
 * A page fine at its visit answers a decompression bomb at its revisit: the revisit is archived as
 * received, its body not read; the crawl log says so as for a page's bomb (outcome
 * `decompression-bomb`, counted among the failures), and the page is classified content-changed
 * with evidence `decompression-bomb` (its decoded body is over the cap its visit was under: it
 * changed, and is not certified), while the pass goes on with the other pages and the crawl
 * finishes. It used to throw out of the pass and fail the crawl. Real parts: a migrated SQLite
 * database, the engine, a loopback site, the certificate file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { CERTIFICATE_FILE } from '../../../worker/crawler/revisit-pass';
import type { CoherenceCertificate } from '../../../worker/coherence';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

test('a revisit answered by a decompression bomb is archived, logged and classified changed; the pass and the crawl go on', { timeout: 60_000 }, async () => {
  // 4 MiB of spaces in a few KiB: over the ICD's 1 MiB cap once decoded.
  const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
  const { listener: site } = countedSite((path, n, _req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html('<a href="/bomb">bomb</a> <a href="/after">after</a>');
    if (path === '/bomb') return n === 1 ? html('<p>soon a bomb</p>') : void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(bomb);
    if (path === '/after') return html('<p>the same page</p>');
    res.writeHead(404).end();
  });
  const fields = { name: 'Revisit bomb', coherence: { mode: 'visit-revisit' }, limits: { maxDecodedBytes: 1024 * 1024 } };
  await withSiteCrawl('tm-revisit-bomb-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') });
    const outcome = await engine.run().then((o) => o, (err: unknown) => `threw: ${err instanceof Error ? err.message : String(err)}`);
    assert.equal(outcome, 'finished');
    const page = (path: string) => db.prepare('SELECT status, evidence, changeRate, revisitedAt IS NOT NULL AS revisited FROM CoherencePage WHERE crawlId = ? AND url = ?').get(crawlId, origin + path) as { status: string; evidence: string; changeRate: number | null; revisited: number };
    const bombed = page('/bomb');
    assert.deepEqual([bombed.status, bombed.evidence, bombed.revisited], ['content-changed', 'decompression-bomb', 1]);
    assert.ok(bombed.changeRate !== null && bombed.changeRate > 0, 'a change observed');
    for (const path of ['/', '/after']) assert.deepEqual([page(path).status, page(path).revisited], ['unchanged', 1], `${path} revisited`);

    const captures = db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, `${origin}/bomb`);
    assert.equal(captures, 2, 'the visit and the revisit archived');
    const log = db.prepare("SELECT status, outcome, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? AND message LIKE 'coherence revisit%'").all(crawlId, `${origin}/bomb`);
    assert.deepEqual(log, [{ status: 200, outcome: 'decompression-bomb', message: 'coherence revisit; text and links not read: the body decodes to more than 1048576 bytes' }]);
    assert.equal(engine.stats().failedByReason['decompression-bomb'], 1, 'counted among the failures');

    const certificate = JSON.parse(readFileSync(join(warcDir, CERTIFICATE_FILE), 'utf8')) as CoherenceCertificate;
    assert.deepEqual(certificate.notCertified, [{ url: `${origin}/bomb`, status: 'content-changed', evidence: 'decompression-bomb' }]);
    assert.deepEqual(certificate.unchanged.map((p) => p.url).sort(), [`${origin}/`, `${origin}/after`]);
  });
});
