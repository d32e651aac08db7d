/**
 * A revisit whose classification the database refuses to store: the revisit's capture and its
 * classification are one transaction, so neither stays; the crawl pauses (as for any refused
 * commit, of a page or a recrawl round), not fails, and the resumed pass goes on with the revisits
 * not yet made: every page revisited once, none skipped, none twice. The failure is real SQLite's:
 * a trigger refuses the revisit's update of the page's row. Real parts: a migrated SQLite database,
 * the engine, a loopback site, the WARC files read with warcio.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { warcTargets } from '../../support/warc-targets';
import { countedSite } from '../../support/counted-site';

const PAGES = ['/a', '/b', '/c', '/d'];

test('a revisit the database refuses to classify pauses the crawl, leaves no capture behind; resumed, each page is revisited once', { timeout: 60_000 }, async () => {
  const { listener: site, requests } = countedSite((path, n, _req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html(PAGES.map((p) => `<a href="${p}">${p}</a>`).join(' '));
    if (PAGES.includes(path)) return html(`<p>${path} at request ${n}</p>`);
    res.writeHead(404).end();
  });
  await withSiteCrawl('tm-revisit-save-', site, { name: 'Revisit save failure', coherence: { mode: 'visit-revisit' } }, async ({ origin, dir, db, icd, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    const b = `${origin}/b`;
    db.exec(`CREATE TRIGGER refuse_b BEFORE UPDATE OF revisitedAt ON CoherencePage WHEN NEW.url = '${b}' AND NEW.revisitedAt IS NOT NULL BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') });
    const paused = engine();
    const first = await paused.run().then((o) => o, (err: unknown) => `threw: ${err instanceof Error ? err.message : String(err)}`);
    assert.equal(first, 'paused', 'the refused commit pauses the crawl');
    assert.match(paused.pausedBecause ?? '', /the database refused to store a capture \(coherence revisit: refused by the test\)/);
    const captures = (url: string) => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, url) as number;
    assert.equal(captures(b), 1, 'only the visit of /b is stored');
    const revisitedBefore = db.prepare('SELECT url FROM CoherencePage WHERE crawlId = ? AND revisitedAt IS NOT NULL').pluck().all(crawlId) as string[];
    assert.ok(revisitedBefore.length < PAGES.length + 1, 'the pass stopped at /b');

    db.exec('DROP TRIGGER refuse_b');
    assert.equal(await engine().run(), 'finished');
    const pending = db.prepare('SELECT url FROM CoherencePage WHERE crawlId = ? AND revisitedAt IS NULL').pluck().all(crawlId);
    assert.deepEqual(pending, [], 'no page skipped');
    const targets = await warcTargets(warcDir, ['response', 'revisit']);
    for (const path of ['/', ...PAGES]) {
      const url = origin + path;
      assert.equal(captures(url), 2, `${path}: its visit and one revisit stored`);
      assert.equal(targets.filter((u) => u === url).length, 2, `${path}: the WARC files hold its visit and one revisit, the refused one cut`);
      // /b was requested once more: its refused revisit.
      assert.equal(requests.get(path), path === '/b' ? 3 : 2, `${path}: requested by the visit and the revisits`);
    }
    const revisited = db.prepare('SELECT status FROM CoherencePage WHERE crawlId = ? AND url = ?').pluck().get(crawlId, b);
    assert.equal(revisited, 'content-changed');
  });
});
