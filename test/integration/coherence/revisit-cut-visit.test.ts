/**
 * A visit–revisit capture in which a page's visit was cut off mid-body (the server closed the
 * connection after half the declared Content-Length) and its revisit is whole. The visit's
 * fingerprint was compared as a whole one: the page counted as changed. It is now missing with
 * evidence `visit-cut` and no change rate. With a strong ETag on the cut visit, the revisit was a
 * conditional GET: the server's 304 counted the page unchanged and became a revisit record pointing
 * at the cut record; it is now asked for without validators, and archived whole. A server that
 * answers 304 to a GET without validators counted the page unchanged all the same, and its 304
 * became a revisit record pointing at the cut record (the only response with the visit's payload
 * digest): it is now visit-cut, and the 304 is archived as a response of its own.
 * Real parts: a migrated SQLite database, the engine, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { CERTIFICATE_FILE } from '../../../worker/crawler/revisit-pass';
import type { CoherenceCertificate } from '../../../worker/coherence';
import { withSiteCrawl } from '../../support/site-crawl';
import { cutBodySite } from '../../support/cut-body-site';

const fields = { name: 'Cut visit', coherence: { mode: 'visit-revisit' }, limits: { maxRetries: 0 } };

test('a page whose visit was cut off mid-body is missing at its revisit (visit-cut), not changed', { timeout: 60_000 }, async () => {
  const { listener: site } = cutBodySite();
  await withSiteCrawl('tm-revisit-cut-visit-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    const page = (url: string) => db.prepare('SELECT status, evidence, changeRate FROM CoherencePage WHERE crawlId = ? AND url = ?').get(crawlId, url);
    assert.deepEqual(page(`${origin}/p`), { status: 'missing', evidence: 'visit-cut', changeRate: null });
    assert.deepEqual(page(`${origin}/`), { status: 'unchanged', evidence: 'payload-digest', changeRate: 0 }, 'a whole visit is compared as before');
  });
});

test('the revisit of a page whose visit was cut off sends no validators, so a 304 cannot stand for a body never archived whole', { timeout: 60_000 }, async () => {
  const etag = '"v1"';
  const { listener: site, ifNoneMatch } = cutBodySite({ etag });
  await withSiteCrawl('tm-revisit-cut-visit-etag-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    assert.deepEqual(ifNoneMatch, [null, null], 'the visit and the revisit of /p were both unconditional');
    const page = db.prepare('SELECT status, evidence, changeRate FROM CoherencePage WHERE crawlId = ? AND url = ?').get(crawlId, `${origin}/p`);
    assert.deepEqual(page, { status: 'missing', evidence: 'visit-cut', changeRate: null });
    const captures = db.prepare('SELECT status, recordType, truncated FROM Capture WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, `${origin}/p`);
    assert.deepEqual(captures, [
      { status: 200, recordType: 'response', truncated: 'disconnect' },
      { status: 200, recordType: 'response', truncated: null },
    ], 'the revisit archived the page whole, no revisit record pointing at the cut one');
  });
});

test('a 304 to the unconditional revisit of a page whose visit was cut off: visit-cut, and no revisit record pointing at the cut one', { timeout: 60_000 }, async () => {
  // /half's whole record holds what the cut visit got, so a lookup by its payload digest finds a record not cut.
  const { listener: site, ifNoneMatch } = cutBodySite({ etag: '"v1"', alwaysNotModified: true, halfTwin: true });
  await withSiteCrawl('tm-revisit-cut-visit-304-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    assert.deepEqual(ifNoneMatch, [null, null], 'the server answered 304 to a revisit that sent no validators');
    const page = db.prepare('SELECT status, evidence, changeRate FROM CoherencePage WHERE crawlId = ? AND url = ?').get(crawlId, `${origin}/p`);
    assert.deepEqual(page, { status: 'missing', evidence: 'visit-cut', changeRate: null });
    const certificate = JSON.parse(readFileSync(join(warcDir, CERTIFICATE_FILE), 'utf8')) as CoherenceCertificate;
    assert.deepEqual(certificate.unchanged.map((p) => p.url).sort(), [`${origin}/`, `${origin}/half`], 'not certified unchanged');
    assert.deepEqual(certificate.notCertified, [{ url: `${origin}/p`, status: 'missing', evidence: 'visit-cut' }]);
    const captures = db.prepare('SELECT status, recordType, truncated FROM Capture WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, `${origin}/p`);
    assert.deepEqual(captures, [
      { status: 200, recordType: 'response', truncated: 'disconnect' },
      { status: 304, recordType: 'response', truncated: null },
    ], 'the 304 archived as a response, not as a revisit of a record with the cut body\'s digest (the cut one, or /half\'s)');
  });
});
