/**
 * Recrawl rounds judge a page changed as the coherence view's classifier does: a page whose only
 * change each round is a "generated at" time and a form's CSRF token is unchanged for a reader. The
 * rounds compared payload digests, so such a page changed every round: its revisit frequency stayed
 * at fr_max and it was refetched every round, as often as a page whose text really changes, while
 * the revisit pass of the same crawl classified it unchanged. Its refetches are still archived as
 * responses (their payloads differ). Real parts: a migrated SQLite database, the engine with a
 * shortened minute, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

const ARTICLE = 'The harbour master keeps the tide tables for the estuary. Boats leave two hours before high water and come back on the ebb. The pilots meet every morning at the lock gates to read the weather and the river gauges.';

/** A rotating advertisement, beside the page's main content. */
const ADS = ['Cheap ferry tickets to the islands, book now', 'The fish market opens on Sundays from six', 'Sailing lessons for beginners all summer long'];

/** The n-th answer of a news page: a story of its own, no sentence shared with the others. */
function story(n: number): string {
  const words = Array.from({ length: 40 }, (_, i) => `w${n}x${i}`).join(' ');
  return `<h1>Story ${n}</h1><p>${words}.</p>`;
}

const ROUNDS = 6;

test('recrawl rounds: a page whose only change is a timestamp, a token and an advertisement is refetched less and less often; one whose text changes, every round', { timeout: 90_000 }, async () => {
  const { listener: site, requests } = countedSite((path, n, _req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><title>${path}</title></head><body>${body}</body></html>`);
    if (path === '/') return html('<a href="/stamped">the harbour</a> <a href="/news">news</a>');
    // A new time, token and advertisement at every answer: the payload always differs, the page does not.
    if (path === '/stamped') {
      return html(`<main><h1>The harbour</h1><p>${ARTICLE}</p><form method="post" action="/subscribe"><input type="hidden" name="csrf" value="tok${n}-${Math.random().toString(36).slice(2)}"><button>Subscribe</button></form><p>Page generated at 10:${String(n % 60).padStart(2, '0')}:07</p></main><aside class="ad"><p>${ADS[n % ADS.length]}</p></aside>`);
    }
    if (path === '/news') return html(`<main>${story(n)}</main>`);
    res.writeHead(404).end();
  });
  const fields = { name: 'Cosmetic changes', coherence: { mode: 'visit-revisit', recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-recrawl-cosmetic-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    const rounds = () => engine.incremental?.rounds ?? [];
    // Read as the sixth round ends: the seventh starts a shortened minute later.
    let afterRounds = new Map<string, number>();
    for (const end = Date.now() + 60_000; Date.now() < end; await sleep(5)) {
      if (rounds().length >= ROUNDS) {
        afterRounds = new Map(requests);
        break;
      }
    }
    await engine.stop();
    assert.equal(await run, 'stopped');
    assert.ok(rounds().length >= ROUNDS, `${ROUNDS} rounds ran: ${rounds().length}`);

    // The coherence view of the same crawl: the visit and the revisit of /stamped are the same page.
    const status = (path: string) => db.prepare('SELECT status FROM CoherencePage WHERE crawlId = ? AND url = ?').pluck().get(crawlId, origin + path);
    assert.equal(status('/stamped'), 'unchanged');
    assert.equal(status('/news'), 'content-changed');

    // Refetches in rounds 1–6: requests after the visit and the revisit.
    const refetches = (path: string) => (afterRounds.get(path) ?? 0) - 2;
    assert.equal(refetches('/news'), ROUNDS, 'the page whose text changes: every round');
    // Unchanged from round 1 on (fr 4 → 2 → 1): rounds 1, 3 and (next) 7. The old code: every round.
    assert.equal(refetches('/stamped'), 2, `the page that only stamps itself: rounds 1 and 3 (${refetches('/stamped')} refetches in ${ROUNDS} rounds)`);
    const fr = (path: string) => db.prepare('SELECT fr FROM engine_recrawl_page WHERE crawl_id = ? AND url = ?').pluck().get(crawlId, origin + path);
    assert.deepEqual([fr('/stamped'), fr('/news')], [1, 4], 'estimated change rates: the lowest revisit frequency, the highest');
    const changed = rounds().slice(0, ROUNDS).map((r) => r.changed);
    assert.ok(changed.every((c) => c === 1), `one page changed in each round, /news: ${changed.join(' ')}`);

    // The WARC side as before: every capture of /stamped holds its own payload, archived as a response.
    const captures = db.prepare('SELECT recordType, payloadDigest FROM Capture WHERE crawlId = ? AND url = ?').all(crawlId, `${origin}/stamped`) as { recordType: string; payloadDigest: string }[];
    assert.ok(captures.length >= 4, `the visit, the revisit and the rounds' refetches: ${captures.length}`);
    assert.ok(captures.every((c) => c.recordType === 'response'), 'each a response');
    assert.equal(new Set(captures.map((c) => c.payloadDigest)).size, captures.length, 'of a payload of its own');
  });
});
