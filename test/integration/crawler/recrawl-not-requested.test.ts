/**
 * Recrawl refetches that are not made — the page's host name does not resolve, or robots.txt
 * refuses it — wrote no crawl-log entry (the revisit pass logs both) and were not recorded for the
 * round, so a round paused after them asked again when run again, and nothing said why the pages
 * were not refetched. They are now logged as the revisit pass logs them (outcome `dns`, counted among
 * the failures; `robots`, counted among the exclusions) and recorded with that entry: the round run
 * again does not ask again. Real parts: a migrated SQLite database, engines run one after the other
 * on it with a shortened minute, a loopback site, a name under .invalid (RFC 6761: never resolves).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { RecrawlState } from '../../../worker/crawler/recrawl-round';
import { DEFAULT_REVISIT_POLICY } from '../../../worker/coherence';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';
import { runUntil, until } from '../../support/engine-run';

// Hosts that give no answer, their pages sorting before the loopback site's: the round refetches them
// first (pages in URL order). A name under .invalid was not logged; a refused connection was, but
// the round run again forgot it when it settled the host's back-off.
const DOWN = [
  { url: 'http://0.nonexistent.invalid/', host: '0.nonexistent.invalid', outcome: 'dns' },
  // Port 1 of loopback (the seed's address class: 0.0.0.0 is one the crawl may not reach).
  { url: 'http://127.0.0.1:1/', host: '127.0.0.1:1', outcome: 'connect-refused' },
];

for (const { url: DOWN_PAGE, host, outcome } of DOWN) test(`a recrawl refetch that gets nothing from its host (${outcome}), or that robots.txt refuses, is logged, not asked again when the round runs again, and counted for the host's back-off`, { timeout: 60_000 }, async () => {
  const { listener: site, requests } = countedSite((path, n, _req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
    if (path === '/') return html('<a href="/a">a</a> <a href="/z">z</a>');
    // Round 1 (the second request) holds /z, the last page it refetches: the crawl is paused meanwhile.
    if (path === '/z' && n === 2) return void setTimeout(() => html('<p>late</p>'), 2_000);
    if (path === '/a' || path === '/z') return html(`<p>the stable page ${path}</p>`);
    res.writeHead(404).end();
  });
  const fields = { name: 'Refetches not made', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-recrawl-not-requested-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const PRIVATE = `${origin}/private`;
    // Two pages of the recrawls the crawl itself would not have captured: one of a host that no longer
    // resolves, one robots.txt has come to disallow (recorded as syncPages records a page captured).
    new RecrawlState(db, crawlId);
    const insert = db.prepare('INSERT INTO engine_recrawl_page (crawl_id, url, parent_url, depth, fr, last_round, payload_digest) VALUES (?, ?, NULL, 1, ?, 0, ?)');
    for (const url of [DOWN_PAGE, PRIVATE]) insert.run(crawlId, url, DEFAULT_REVISIT_POLICY.frMax, 'sha1:STORED');
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300, haltGraceMs: 100 });
    // The crawl-log entries of a page's refetch in a round (its message is `recrawl round N`, then `;` or `:` when there is more to say).
    const ofRound = (url: string, round: number) => db.prepare("SELECT outcome FROM CrawlLogEntry WHERE crawlId = ? AND url = ? AND outcome != 'recrawl-host-backoff' AND (message LIKE ? OR message LIKE ?)").pluck().all(crawlId, url, `recrawl round ${round};%`, `recrawl round ${round}:%`) as string[];

    const first = engine();
    const run = first.run();
    await until('round 1 asked for /z', () => requests.get('/z') === 2);
    await first.pause();
    assert.equal(await run, 'paused');
    assert.deepEqual(first.incremental?.rounds, [], 'round 1 did not finish');
    // The old code logged neither.
    assert.deepEqual(ofRound(DOWN_PAGE, 1), [outcome], 'the refetch that got nothing from its host is logged as the revisit pass logs it');
    assert.deepEqual(ofRound(PRIVATE, 1), ['robots'], 'the page robots.txt refuses is logged as the revisit pass logs it');
    assert.match(db.prepare("SELECT message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? AND outcome = 'robots'").pluck().get(crawlId, PRIVATE) as string, /^recrawl round 1: not refetched: disallowed by robots\.txt; asked again at each round it is due, not logged again while it refuses it$/);
    assert.equal(first.stats().failedByReason[outcome], 1);
    assert.equal(first.stats().excludedByReason.robots, 1);
    const robotsReads = requests.get('/robots.txt');

    const resumed = engine();
    await runUntil(resumed, 'round 2 ended', () => (resumed.incremental?.rounds.length ?? 0) >= 2);
    const [r1, r2] = resumed.incremental!.rounds;
    assert.equal(r1?.round, 1);
    // Run again, round 1 went on from what it recorded: neither page asked for again (the old code, recording neither, asked again).
    assert.deepEqual(ofRound(DOWN_PAGE, 1), [outcome], 'round 1 tried the page once');
    assert.deepEqual(ofRound(PRIVATE, 1), ['robots'], 'round 1 asked robots.txt about /private once');
    assert.deepEqual([r1!.due, r1!.fetched], [5, 3], 'round 1: /, /a and /z observed; the two others due, not observed');
    // Round 2: the host that does not resolve waits out its back-off; robots.txt still refuses /private.
    assert.equal(r2?.round, 2);
    assert.deepEqual([r2!.backedOff, ofRound(DOWN_PAGE, 2)], [1, []], 'its host gave no answer in round 1, before the pause');
    const backoff = db.prepare("SELECT message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'recrawl-host-backoff'").pluck().all(crawlId) as string[];
    assert.deepEqual(backoff.map((m) => m.split(';')[0]), [`recrawl round 1: no answer from ${host} to any of its 1 refetch (${outcome})`], 'the host back-off counts the refetch made before the pause');
    assert.deepEqual(ofRound(PRIVATE, 2), [], 'refused again, not logged again: logged at its first refusal');
    assert.deepEqual(requests.get('/private'), undefined, 'never requested');
    assert.ok((requests.get('/robots.txt') ?? 0) >= (robotsReads ?? 0));
    // The counters the resumed crawl restored from the crawl log, and its own.
    assert.equal(resumed.stats().failedByReason[outcome], 1, 'the one failure, not counted again');
    assert.equal(resumed.stats().excludedByReason.robots, 1, 'round 1 only: one exclusion, not one a round');
  });
});
