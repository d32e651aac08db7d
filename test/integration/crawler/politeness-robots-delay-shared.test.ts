/**
 * A robots.txt Crawl-delay is the host's, and the worker's crawls share it (one politeness
 * registry): when one crawl reads the host's robots.txt again and finds a shorter delay, another
 * crawl of the host waiting out the longer one goes at its next turn, not when the old delay ends.
 * Real parts: a migrated SQLite database, two engines in this process sharing one registry, and a
 * loopback site (its own address) that logs when each request starts and ends.
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

const OLD_DELAY_S = 3;
const NEW_DELAY_MS = 50;

test('a Crawl-delay read shorter by one crawl applies at once to another crawl of the host', { timeout: 60_000 }, async () => {
  let robots = `User-agent: *\nCrawl-delay: ${OLD_DELAY_S}\n`;
  let firstPageOfB: () => void = () => undefined;
  const bStarted = new Promise<void>((r) => (firstPageOfB = r));
  const site = await startLoggedSite({
    ip: '127.0.0.71',
    latencyMs: 10,
    onRequest: (path) => {
      if (path !== '/b/1') return;
      // From now on the site asks for a short delay; the other crawl starts and reads it.
      robots = `User-agent: *\nCrawl-delay: ${NEW_DELAY_MS / 1000}\n`;
      firstPageOfB();
    },
    answer: (path) => {
      if (path === '/robots.txt') return { status: 200, type: 'text/plain', body: robots };
      const page = /^\/([ab])\/([1-3])$/.exec(path);
      if (!page) return { status: 404 };
      const n = Number(page[2]);
      return { status: 200, body: n < 3 ? `<a href="/${page[1]}/${n + 1}">next</a>` : '<p>end</p>' };
    },
  });
  try {
    await withTempDir('tm-robots-delay-shared-', async (dir) => {
      const db = migratedDatabase(dir);
      const registry = new PolitenessRegistry();
      // B honours the long delay; A caps it (maxDelayMs), so it reads robots.txt soon after B's first page.
      const engine = (name: string, maxDelayMs: number) => {
        const icd = icdSchema.parse({
          name, seeds: [`${site.origin}/${name}/1`], aah: { enabled: false },
          politeness: { minDelayMs: NEW_DELAY_MS, maxDelayMs, delayFactor: 0, concurrency: 2 },
        });
        return new CrawlEngine({ crawlId: insertCrawl(db, icd), icd, db, registry, warcDir: join(dir, name, 'warcs'), spoolDir: join(dir, name, 'spool') });
      };
      const b = engine('b', 10_000).run();
      await bStarted;
      const a = engine('a', 100).run();
      assert.deepEqual(await Promise.all([a, b]), ['finished', 'finished']);
      assert.equal(registry.listenerCount, 0, 'the finished crawls stopped listening to the registry');
      db.close();
    });
  } finally {
    site.close();
  }
  const sorted = inArrivalOrder(site.log);
  const paths = sorted.map((r) => r.path).join(' ');
  const find = (path: string, nth = 1) => sorted.filter((r) => r.path === path)[nth - 1];
  const b1 = find('/b/1')!;
  const b2 = find('/b/2')!;
  const rereadRobots = find('/robots.txt', 2)!;
  assert.ok(b1 && b2 && rereadRobots, `requests: ${paths}`);
  assert.ok(rereadRobots.at > b1.at, `the second robots.txt came after /b/1: ${paths}`);
  // Before, B's /b/2 waited the old 3 s after /b/1 though the site had asked for 50 ms meanwhile.
  const wait = b2.at - rereadRobots.end!;
  assert.ok(wait < 1_000, `/b/2 came ${wait} ms after robots.txt was read with the shorter delay (${b2.at - b1.end!} ms after /b/1): ${paths}`);
  assertPolite(site.log, NEW_DELAY_MS);
});
