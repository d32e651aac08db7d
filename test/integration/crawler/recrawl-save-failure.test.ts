/**
 * A recrawl round whose save of a page's new state fails: the page's capture and its state are one
 * transaction, so neither stays; the crawl pauses (a refused commit, whose records the next start
 * cuts from the WARC file), and the resumed round captures the page once. The page was captured
 * again at every retry of the round, its state never saved. The failure is real SQLite's: a trigger
 * refuses the update of the page's row. Real parts: a migrated SQLite database, the engine on a
 * shortened minute, a loopback site, the WARC files read back with warcio.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { warcTargets } from '../../support/warc-targets';
import { changingPageSite } from '../../support/changing-page-site';

test('a recrawl round failing at the save of a page leaves no capture of it behind; resumed, the page is captured once', { timeout: 60_000 }, async () => {
  await withSiteCrawl('tm-recrawl-save-', changingPageSite, { name: 'Recrawl save failure', coherence: { recrawlIntervalMinutes: 1 } }, async ({ origin, dir, db, icd, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    const a = `${origin}/a`;
    const captures = () => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, a) as number;
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    for (const end = Date.now() + 20_000; captures() < 1 && Date.now() < end; ) await sleep(5);
    assert.equal(captures(), 1, 'the visit captured /a');
    // From now on the database refuses to save /a's recrawl state.
    db.exec(`CREATE TRIGGER refuse_a BEFORE UPDATE ON engine_recrawl_page WHEN NEW.url = '${a}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    // Long enough for several retries of a round failing each minute (300 ms).
    const outcome = await Promise.race([run, sleep(4_000).then(() => 'still running')]);
    if (outcome === 'still running') await engine.stop();
    await run;
    assert.equal(captures(), 1, 'no capture of /a stands without its saved state');
    assert.equal(outcome, 'paused', 'the refused commit pauses the crawl');
    assert.match(engine.pausedBecause ?? '', /the database refused to store a capture/);
    const failure = db.prepare('SELECT round, failures, message, url, retry_at FROM engine_recrawl_failure WHERE crawl_id = ?').get(crawlId);
    assert.deepEqual(failure, { round: 1, failures: 1, message: 'refused by the test', url: a, retry_at: null }, "the round's failure: the error, the page, run again on resume");
    const logged = db.prepare("SELECT message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'recrawl-round-failed'").pluck().all(crawlId);
    assert.deepEqual(logged, ['recrawl round 1 failed: refused by the test; the crawl pauses; the round runs again when it is resumed']);

    db.exec('DROP TRIGGER refuse_a');
    const resumed = new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const again = resumed.run();
    for (const end = Date.now() + 20_000; (resumed.incremental?.rounds.length ?? 0) < 1 && Date.now() < end; ) await sleep(20);
    await resumed.stop();
    assert.equal(await again, 'stopped');
    const [round] = resumed.incremental!.rounds;
    assert.equal(round!.round, 1);
    const state = db.prepare('SELECT last_round FROM engine_recrawl_page WHERE crawl_id = ? AND url = ?').pluck().get(crawlId, a);
    assert.equal(state, 1, "/a's state is saved by round 1");
    // /a's visit and its one capture of round 1 (rounds after it may have captured it again): in the database as in the WARC files.
    const n = captures();
    const rounds = resumed.incremental!.rounds.filter((r) => r.fetched > 0).length;
    assert.equal(n, 1 + rounds, `/a captured once by each round that fetched it (${n} captures, ${rounds} rounds)`);
    assert.equal((await warcTargets(warcDir, ['response'])).filter((u) => u === a).length, n, 'the WARC files hold each capture once, the refused one cut');
  });
});
