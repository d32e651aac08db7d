/**
 * A revisit that gets no answer about its page (a connection cut, a 503) cannot prove the page
 * unchanged, nor show it changed: the page is missing with evidence `unreachable` (a 404 stays
 * `gone`), it is not certified, and it gets no change rate, so the capture's blur is not raised by
 * a failure of the network. Real parts: a migrated SQLite database, the engine, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { CERTIFICATE_FILE } from '../../../worker/crawler/revisit-pass';
import type { CoherenceCertificate } from '../../../worker/coherence';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

test('a revisit without an answer about the page: missing, evidence unreachable, no change rate; a 404 is gone', { timeout: 60_000 }, async () => {
  const { listener: site } = countedSite((path, n, req, res) => {
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/cut">cut</a> <a href="/busy">busy</a> <a href="/removed">removed</a>');
    if (!['/cut', '/busy', '/removed'].includes(path)) return void res.writeHead(404).end();
    if (n === 1) return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>the page ${path}</p>`);
    // The revisit: the connection cut, a server error, a page removed.
    if (path === '/cut') return void req.socket.destroy();
    res.writeHead(path === '/busy' ? 503 : 404, { 'content-type': 'text/html' }).end('<p>no</p>');
  });
  const fields = { name: 'Revisit unreachable', coherence: { mode: 'visit-revisit' }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-revisit-unreachable-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    const page = (path: string) => db.prepare('SELECT status, evidence, changeRate FROM CoherencePage WHERE crawlId = ? AND url = ?').get(crawlId, origin + path) as { status: string; evidence: string; changeRate: number | null };
    assert.deepEqual(page('/cut'), { status: 'missing', evidence: 'unreachable', changeRate: null });
    assert.deepEqual(page('/busy'), { status: 'missing', evidence: 'unreachable', changeRate: null });
    const removed = page('/removed');
    assert.deepEqual([removed.status, removed.evidence], ['missing', 'gone']);
    assert.ok(removed.changeRate !== null && removed.changeRate > 0, 'a page gone is a change observed');

    // The cut connection left nothing to archive: the crawl log says what happened, as a failure.
    const cut = db.prepare("SELECT status, outcome, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? AND outcome != 'ok'").all(crawlId, `${origin}/cut`) as { status: number | null; outcome: string; message: string }[];
    assert.equal(cut.length, 1, 'one entry for the failed revisit');
    assert.equal(cut[0]!.status, null);
    assert.match(cut[0]!.message, /^coherence revisit; no answer about the page: ./);
    assert.equal(engine.stats().failedByReason[cut[0]!.outcome], 1);

    const certificate = JSON.parse(readFileSync(join(warcDir, CERTIFICATE_FILE), 'utf8')) as CoherenceCertificate;
    assert.deepEqual(certificate.unchanged.map((p) => p.url), [`${origin}/`]);
    assert.deepEqual(certificate.notCertified, [
      { url: `${origin}/busy`, status: 'missing', evidence: 'unreachable' },
      { url: `${origin}/cut`, status: 'missing', evidence: 'unreachable' },
      { url: `${origin}/removed`, status: 'missing', evidence: 'gone' },
    ]);
    assert.deepEqual(certificate.summary.byStatus, { unchanged: 1, 'content-changed': 0, 'links-changed': 0, missing: 3 });
  });
});
