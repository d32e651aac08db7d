/**
 * The revisit pass of a visit–revisit capture asks robots.txt before fetching a page again, as
 * recrawl rounds and feed polls do: a page robots.txt has come to disallow is not requested, and
 * since it was not revisited it cannot be proved unchanged. Real parts: a migrated SQLite
 * database, the engine (robots.txt answers kept 20 ms, so the revisits read it again), a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { CERTIFICATE_FILE } from '../../../worker/crawler/revisit-pass';
import type { CoherenceCertificate } from '../../../worker/coherence';
import { withSiteCrawl } from '../../support/site-crawl';
import { robotsSite } from '../../support/robots-site';

test('the revisit pass does not request a page robots.txt came to disallow after its visit; the page is missing, not certified', { timeout: 60_000 }, async () => {
  // The visit of /b is the last request the old rules answer for.
  const site = robotsSite({
    onRequest: (path) => {
      if (path === '/b') site.robots = 'User-agent: *\nDisallow: /b\n';
    },
  });
  const { requested } = site;
  const fields = { name: 'Revisit and robots', coherence: { mode: 'visit-revisit' }, politeness: { minDelayMs: 50, maxDelayMs: 100, concurrency: 1 } };
  await withSiteCrawl('tm-revisit-robots-', site.listener, fields, async ({ origin, dir, db, icd, crawlId }) => {
    // robots.txt is kept 20 ms, under the 50 ms the host's requests are apart: each revisit reads it again.
    const warcDir = join(dir, 'warcs');
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool'), robotsMaxAgeMs: 20 });
    assert.equal(await engine.run(), 'finished');

    assert.deepEqual(requested.filter((p) => p === '/b'), ['/b'], `/b was visited, never revisited: ${requested.join(' ')}`);
    assert.deepEqual(requested.filter((p) => p === '/a'), ['/a', '/a'], `/a was visited and revisited: ${requested.join(' ')}`);
    const afterB = requested.slice(requested.indexOf('/b') + 1);
    assert.ok(afterB.includes('/robots.txt'), `robots.txt was read again after the visit of /b: ${requested.join(' ')}`);

    const page = (url: string) => db.prepare('SELECT status, evidence, revisitedAt, revisit, changeRate FROM CoherencePage WHERE crawlId = ? AND url = ?').get(crawlId, url) as
      { status: string; evidence: string; revisitedAt: string | null; revisit: string | null; changeRate: number | null };
    const b = page(`${origin}/b`);
    assert.equal(b.status, 'missing');
    assert.equal(b.evidence, 'robots-disallowed');
    assert.ok(b.revisitedAt !== null, 'the page is done: a resumed pass does not ask again');
    assert.equal(b.revisit, null, 'no revisit fingerprint');
    assert.equal(b.changeRate, null, 'no change rate: nothing was observed');
    assert.equal(page(`${origin}/a`).status, 'unchanged');

    const log = db.prepare('SELECT outcome, status, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, `${origin}/b`) as { outcome: string; status: number | null; message: string | null }[];
    assert.deepEqual(log.map((l) => l.outcome), ['ok', 'robots']);
    assert.equal(log[1]!.status, null);
    assert.match(log[1]!.message ?? '', /revisit.*robots\.txt/);
    const captures = db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, `${origin}/b`);
    assert.equal(captures, 1, 'only the visit of /b is archived');

    const certificate = JSON.parse(readFileSync(join(warcDir, CERTIFICATE_FILE), 'utf8')) as CoherenceCertificate;
    assert.deepEqual(certificate.unchanged.map((p) => p.url), [`${origin}/`, `${origin}/a`]);
    assert.deepEqual(certificate.notCertified, [{ url: `${origin}/b`, status: 'missing', evidence: 'robots-disallowed' }]);
    assert.deepEqual(certificate.summary.byStatus, { unchanged: 2, 'content-changed': 0, 'links-changed': 0, missing: 1 });
  });
});
