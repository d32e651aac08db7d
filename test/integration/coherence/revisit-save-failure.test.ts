/**
 * A revisit whose classification the database refuses to store: the revisit's capture and its
 * classification are one transaction, so neither stays, and the resumed pass revisits the page once.
 * The failure is real SQLite's: a trigger refuses the revisit's update of the page's row. Real
 * parts: a migrated SQLite database, the engine, a loopback site, the WARC files read with warcio.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { warcTargets } from '../../support/warc-targets';
import { changingPageSite } from '../../support/changing-page-site';

test('a revisit the database refuses to classify leaves no capture behind; resumed, the page is revisited once', { timeout: 60_000 }, async () => {
  await withSiteCrawl('tm-revisit-save-', changingPageSite, { name: 'Revisit save failure', coherence: { mode: 'visit-revisit' } }, async ({ origin, dir, db, icd, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    const a = `${origin}/a`;
    db.exec(`CREATE TRIGGER refuse_a BEFORE UPDATE OF revisitedAt ON CoherencePage WHEN NEW.url = '${a}' AND NEW.revisitedAt IS NOT NULL BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') });
    const first = await engine().run().then((o) => o, (err: unknown) => `threw: ${err instanceof Error ? err.message : String(err)}`);
    assert.equal(first, 'threw: refused by the test', 'the run ends with the error, as before');
    const captures = () => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, a) as number;
    assert.equal(captures(), 1, `only the visit of /a is stored (run: ${first})`);

    db.exec('DROP TRIGGER refuse_a');
    assert.equal(await engine().run(), 'finished');
    assert.equal(captures(), 2, 'the visit and one revisit of /a');
    const revisited = db.prepare('SELECT status FROM CoherencePage WHERE crawlId = ? AND url = ?').pluck().get(crawlId, a);
    assert.equal(revisited, 'content-changed');
    assert.equal((await warcTargets(warcDir, ['response', 'revisit'])).filter((u) => u === a).length, 2, 'the WARC files hold the visit and one revisit, the refused one cut');
  });
});
