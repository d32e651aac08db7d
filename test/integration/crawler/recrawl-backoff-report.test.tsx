/**
 * The report of a recrawl round that left pages out because their host waits out a back-off: the
 * count is stored with the round, read back as GET /api/crawls/:id/incremental answers it, and
 * shown by the crawl page's "Feeds and recrawls" box; such pages are not counted as due (the box
 * says due pages are those the round set out to refetch). They were counted as due, and nothing
 * told why a round with due pages fetched none. Real parts: a migrated SQLite database, the engine
 * on a shortened minute, a loopback server closed after the first crawl; the box rendered by React.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { readIncrementalView } from '../../../worker/crawler/incremental-records';
import { FeedsAndRecrawls } from '../../../app/crawls/[id]/feeds-recrawls';
import { keys } from '../../../app/lib/client/queries';
import { withCrawl } from '../../support/site-crawl';
import { hostGoingDown } from '../../support/host-going-down';

test('a round that leaves out the pages of a host in back-off reports them apart from the due pages, and the box shows them', { timeout: 90_000 }, async () => {
  const site = await hostGoingDown();
  const { origin, close } = site;
  try {
    await withCrawl('tm-recrawl-backoff-report-', { seeds: [`${origin}/`], name: 'Back-off report', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } }, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 200 });
      const run = engine.run();
      const until = async (done: () => boolean, what: string) => {
        for (const end = Date.now() + 40_000; !done(); await sleep(10)) assert.ok(Date.now() < end, `timed out waiting for ${what}`);
      };
      await until(() => (db.prepare("SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND status = 200 AND url != ?").pluck().get(crawlId, `${origin}/robots.txt`) as number) === 2, 'the first crawl');
      await close();
      // Round 1 tries the host (refused), round 2 leaves it out, round 3 tries it again.
      await until(() => (engine.incremental?.rounds.length ?? 0) >= 3, 'round 3');
      await engine.stop();
      assert.equal(await run, 'stopped');

      const view = readIncrementalView(db, crawlId, { feeds: [], minFeedPollMinutes: 15, recrawlIntervalMinutes: 1 }, 'stopped', Date.now());
      const stored = view.recrawl!.rounds.filter((r) => r.round <= 3).map((r) => [r.round, r.pages, r.due, r.backedOff, r.fetched]);
      assert.deepEqual(stored, [[3, 2, 2, 0, 0], [2, 2, 0, 2, 0], [1, 2, 2, 0, 0]], 'round 2: nothing due it could refetch, both pages left out by the back-off');
      assert.deepEqual(engine.incremental?.rounds.slice(0, 3).map((r) => [r.round, r.due, r.backedOff]), [[1, 2, 0], [2, 0, 2], [3, 2, 0]], 'the live report says the same');

      const client = new QueryClient();
      client.setQueryData(keys.incrementalPage(crawlId, 1, 'all'), view);
      const html = renderToStaticMarkup(<QueryClientProvider client={client}><FeedsAndRecrawls crawlId={crawlId} running={false} /></QueryClientProvider>);
      const row = (round: number) => new RegExp(`<tr data-testid="round-row" data-round="${round}">.*?</tr>`).exec(html)?.[0] ?? '';
      const due = (round: number) => /data-testid="round-due">(.*?)<\/td>/.exec(row(round))?.[1];
      assert.equal(due(2), '0<span class="block whitespace-nowrap text-xs text-amber-900" data-testid="round-backed-off">+2 left out: host back-off</span>', row(2));
      assert.equal(due(1), '2', 'nothing said when no page was left out');
      assert.equal(due(3), '2');
      assert.match(html, /Due: the pages whose revisit time had come that the round set out to refetch/);
    });
  } finally {
    if (site.listening()) await close();
  }
});
