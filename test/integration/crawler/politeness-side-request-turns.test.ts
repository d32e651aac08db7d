/**
 * Requests outside the frontier's leases (revisits, recrawl rounds, feed polls, robots.txt of a
 * redirect) take a busy host's key when it is freed. They used to look every 50 ms, so a crawl
 * whose next such request asked the moment its last one ended took the key again before another
 * crawl waiting for it looked: one crawl made all its requests, the other waited. Now the key is
 * handed to the first in line. Real parts: a migrated SQLite database, two crawls' frontiers on
 * it sharing the worker's registry, the requests' own wait for the key and the delay, and a
 * loopback site (its own address) whose log gives the order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteFrontier } from '../../../worker/frontier';
import { PolitenessRegistry, type KeyHolder } from '../../../worker/politeness';
import { takeHostKey } from '../../../worker/crawler/key-turn';
import { waitUntil } from '../../../worker/crawler/wait-until';
import { icdSchema } from '../../../worker/icd/schema';
import { insertCrawl, migratedDatabase } from '../../support/crawl-rows';
import { assertPolite, inArrivalOrder, startLoggedSite } from '../../support/logged-site';
import { withTempDir } from '../../support/temp-dir';
import { crawlConfig } from '../frontier/frontier-fixture';

const IP = '127.0.0.72';
const DELAY_MS = 40;
const REQUESTS = 6;

test('two crawls\' requests outside the leases take a host\'s turns alternately, in the order they asked', { timeout: 60_000 }, async () => {
  const site = await startLoggedSite({ ip: IP, latencyMs: 15, answer: () => ({ status: 200, type: 'text/plain', body: 'ok' }) });
  const host = new URL(site.origin).host;
  try {
    await withTempDir('tm-side-turns-', async (dir) => {
      const db = migratedDatabase(dir);
      const registry = new PolitenessRegistry();
      const politeness = { enabled: true, minDelayMs: DELAY_MS, maxDelayMs: DELAY_MS, delayFactor: 0 };
      const icd = icdSchema.parse({ name: 'Turns', seeds: [`${site.origin}/`] });
      // One frontier per crawl, as the worker's engines have, on one database and one registry.
      const crawls = ['a', 'b'].map((name) => {
        const crawlId = insertCrawl(db, icd);
        const frontier = new SqliteFrontier(db, { registry });
        frontier.openCrawl(crawlId, crawlConfig({ politeness }));
        return { name, crawlId, frontier };
      });
      // Each crawl revisits its pages one after another, as a revisit pass does: the next asks as the last one ends.
      const revisit = async ({ name, crawlId, frontier }: (typeof crawls)[number]) => {
        for (let i = 1; i <= REQUESTS; i++) {
          const holder: KeyHolder = { host };
          assert.equal(await takeHostKey(frontier, holder, IP, { halted: () => false }), 'held');
          assert.ok(await waitUntil(() => frontier.hostReadyAt(crawlId, host), () => false));
          const startedAt = Date.now();
          await (await fetch(`${site.origin}/${name}/${i}`)).text();
          frontier.releaseKey(holder, { lastStartAt: startedAt, lastDurationMs: Date.now() - startedAt });
        }
      };
      await Promise.all(crawls.map(revisit));
      for (const { frontier } of crawls) frontier.close();
      db.close();
    });
  } finally {
    site.close();
  }
  const order = inArrivalOrder(site.log).map((r) => r.path.split('/')[1]).join('');
  assert.equal(order.length, 2 * REQUESTS);
  // Whichever asked first, the crawls alternate: each waits for the other's request once it has had its own.
  assert.ok(order === 'ab'.repeat(REQUESTS) || order === 'ba'.repeat(REQUESTS), `turns in the server's log: ${order}`);
  assertPolite(site.log, DELAY_MS);
});
