/**
 * A revisit pass makes its requests one after another outside the frontier's leases, each taking
 * the host's key the moment it was free: its next revisit took it again as its last one ended, so
 * another crawl's pages of the host waited until the whole pass was over. Now a freed key is the
 * turn of the leases that waited for it while it was held, and the next revisit waits in line behind
 * them. Real parts: a migrated SQLite database, two engines in this process sharing one registry, a
 * loopback site (its own address) whose log gives the order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { icdSchema } from '../../../worker/icd/schema';
import { PolitenessRegistry } from '../../../worker/politeness';
import { insertCrawl, migratedDatabase } from '../../support/crawl-rows';
import { assertPolite, inArrivalOrder, startLoggedSite } from '../../support/logged-site';
import { withTempDir } from '../../support/temp-dir';

const DELAY_MS = 60;
const PAGES = 4;

test('a revisit pass and another crawl\'s pages of the host take turns', { timeout: 60_000 }, async () => {
  const site = await startLoggedSite({
    ip: '127.0.0.73',
    // Slack for b's engine: a lease whose host is not yet parked on the key when a revisit frees it
    // (its timer came late) does not get that turn.
    latencyMs: 40,
    answer: (path) => {
      const page = /^\/([ab])\/(\d+)$/.exec(path);
      if (!page) return { status: 404 };
      const n = Number(page[2]);
      // b's chain is three times as long: it still has pages when a revisits its own.
      const last = page[1] === 'a' ? PAGES : 3 * PAGES;
      return { status: 200, body: n < last ? `<a href="/${page[1]}/${n + 1}">next</a>` : '<p>end</p>' };
    },
  });
  try {
    await withTempDir('tm-revisit-turns-', async (dir) => {
      const db = migratedDatabase(dir);
      const registry = new PolitenessRegistry();
      const politeness = { minDelayMs: DELAY_MS, maxDelayMs: DELAY_MS, delayFactor: 0, concurrency: 2 };
      // Crawl a visits its chain, then revisits it; crawl b, started with it, has one page per turn ready.
      const run = (name: string, more: object) => {
        const icd = icdSchema.parse({ name, seeds: [`${site.origin}/${name}/1`], aah: { enabled: false }, politeness, ...more });
        return new CrawlEngine({ crawlId: insertCrawl(db, icd), icd, db, registry, warcDir: join(dir, name, 'warcs'), spoolDir: join(dir, name, 'spool') }).run();
      };
      assert.deepEqual(await Promise.all([run('a', { coherence: { mode: 'visit-revisit' } }), run('b', {})]), ['finished', 'finished']);
      assert.equal(registry.listenerCount, 0);
      db.close();
    });
  } finally {
    site.close();
  }
  const sorted = inArrivalOrder(site.log);
  const paths = sorted.map((r) => r.path).join(' ');
  // The revisits are a's second requests of its pages; b's pages that came while they ran must be among them.
  const seen = new Set<string>();
  const revisits = sorted.map((r, i) => ({ r, i })).filter(({ r }) => r.path.startsWith('/a/') && (seen.has(r.path) || !seen.add(r.path)));
  assert.equal(revisits.length, PAGES, paths);
  const firstRevisit = revisits[0]!.i;
  const lastRevisit = revisits.at(-1)!.i;
  const bDuring = sorted.slice(firstRevisit, lastRevisit).filter((r) => r.path.startsWith('/b/')).length;
  const bAfter = sorted.slice(lastRevisit).filter((r) => r.path.startsWith('/b/')).length;
  // Before, none: the pass took every turn, b's pages came after it.
  assert.ok(bDuring >= PAGES - 2, `b's pages waited for the revisit pass (${bDuring} between its revisits, ${bAfter} after): ${paths}`);
  assertPolite(site.log, DELAY_MS);
});
