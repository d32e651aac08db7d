/**
 * One worker runs every active crawl, and a site owes politeness to the worker, not to each crawl:
 * two crawls of one site (a focused crawl and a full one of the same national site) must share
 * the host's clock. Real parts: a migrated SQLite database, the worker's CrawlManager running both
 * crawls at once in this process, and a loopback site that logs when each request starts and ends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { CrawlManager } from '../../../worker/process/crawl-manager';
import { icdSchema } from '../../../worker/icd/schema';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { startFixtureSite, type FixtureSite } from '../../support/fixture-site';
import { insertCrawl } from '../../support/crawl-rows';
import { withTempDir } from '../../support/temp-dir';

const DELAY_MS = 100;
const PAGES = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs one crawl per seed origin at once through the worker's manager (`more`: fields each crawl's
 * ICD adds, a visit–revisit crawl say); returns what each captured.
 */
async function crawlAtOnce(origins: string[], more: object[] = []): Promise<{ captured: Set<string>[]; ms: number; manager: CrawlManager }> {
  return withTempDir('tm-polite-crawls-', async (dataDir) => {
    const db = openSqlite(join(dataDir, 'tidemark.db'));
    applyMigrations(db, resolve('prisma/migrations'));
    const ids = origins.map((origin, i) => insertCrawl(db, icdSchema.parse({
      name: `Crawl ${i + 1}`,
      seeds: [`${origin}/`],
      politeness: { minDelayMs: DELAY_MS, maxDelayMs: DELAY_MS, delayFactor: 0, concurrency: 4 },
      aah: { enabled: false },
      ...more[i],
    })));
    const manager = new CrawlManager({ db, dataDir, send: () => undefined });
    const started = Date.now();
    manager.start();
    try {
      const status = (id: number) => db.prepare('SELECT status FROM Crawl WHERE id = ?').pluck().get(id) as string;
      for (const end = Date.now() + 90_000; ids.some((id) => status(id) !== 'finished') && Date.now() < end; ) await sleep(50);
      const ms = Date.now() - started;
      for (const id of ids) assert.equal(status(id), 'finished', `crawl ${id} finished`);
      // Once both have ended, no crawl that may still run needs their hosts' politeness rows (prunePolitenessRows).
      const hostRows = () => db.prepare('SELECT COUNT(*) FROM frontier_host').pluck().get() as number;
      for (const end = Date.now() + 10_000; hostRows() > 0 && Date.now() < end; ) await sleep(20);
      assert.equal(hostRows(), 0, 'the worker pruned the ended crawls\' host rows');
      const captured = ids.map((id) => new Set(db.prepare('SELECT url FROM Capture WHERE crawlId = ?').pluck().all(id) as string[]));
      return { captured, ms, manager };
    } finally {
      await manager.shutdown();
      db.close();
    }
  });
}

/** The server's log, in start order: overlapping requests and gaps (end of one → start of the next) under the delay. */
function checkLog(site: FixtureSite): { requests: number; overlaps: string[]; short: string[]; minGap: number; maxGap: number } {
  const sorted = [...site.requests].sort((a, b) => a.at - b.at);
  const overlaps: string[] = [];
  const short: string[] = [];
  let minGap = Infinity;
  let maxGap = -Infinity;
  for (let i = 1; i < sorted.length; i++) {
    const [prev, cur] = [sorted[i - 1]!, sorted[i]!];
    const name = `${prev.host}${prev.path} → ${cur.host}${cur.path}`;
    if (prev.end === undefined || prev.end > cur.at) {
      overlaps.push(name);
      continue;
    }
    const gap = cur.at - prev.end;
    minGap = Math.min(minGap, gap);
    maxGap = Math.max(maxGap, gap);
    // 5 ms of slack for timer granularity (the engine counts from when it read the response's end).
    if (gap < DELAY_MS - 5) short.push(`${name}: ${gap} ms`);
  }
  return { requests: sorted.length, overlaps, short, minGap, maxGap };
}

for (const [title, names, more] of [
  ['two crawls of one host share its politeness clock: one request at a time, each after the delay', ['127.0.0.1', '127.0.0.1'], []],
  ['two crawls of two host names on one IP (127.0.0.1, localhost) share the IP\'s clock', ['127.0.0.1', 'localhost'], []],
  // The revisit pass fetches outside the frontier's leases: 3 pages visited, then revisited while the other crawl still crawls.
  ['a visit–revisit crawl\'s revisits take turns with another crawl of the host', ['127.0.0.1', 'localhost'], [{ coherence: { mode: 'visit-revisit' }, scope: { maxPages: 3 } }]],
] as const) {
  test(title, { timeout: 120_000 }, async () => {
    const site = await startFixtureSite({ pageCount: PAGES, delayMs: 30 });
    const port = new URL(site.origin).port;
    const origins = names.map((name) => `http://${name}:${port}`);
    try {
      const { captured, ms, manager } = await crawlAtOnce(origins, [...more]);
      captured.forEach((urls, i) => {
        const budget = (more[i] as { scope?: { maxPages?: number } } | undefined)?.scope?.maxPages;
        const pages = site.pages.filter((page) => urls.has(page.replace(site.origin, origins[i]!)));
        if (budget === undefined) assert.deepEqual(pages, site.pages, `crawl ${i + 1} captured every page`);
        else assert.equal(pages.length, budget, `crawl ${i + 1} captured its ${budget} pages`);
      });
      if (more[0]) {
        // robots.txt and 3 pages visited, then 3 revisits, the first of them before the other crawl's last request.
        const first = site.requests.filter((r) => r.host === new URL(origins[0]!).host);
        const other = site.requests.filter((r) => r.host === new URL(origins[1]!).host);
        assert.equal(first.length, 7);
        assert.ok(first[4]!.at < other.at(-1)!.at, 'the revisits ran while the other crawl crawled');
      }
      const log = checkLog(site);
      const figures = `${log.requests} requests in ${ms} ms; ${log.overlaps.length} overlapping, ${log.short.length} closer than ${DELAY_MS} ms; gaps ${log.minGap}–${log.maxGap} ms`;
      console.log(`# ${figures}`);
      assert.ok(log.requests >= 2 * PAGES, `both crawls' pages were requested (${log.requests})`);
      assert.deepEqual(log.overlaps, [], `never two requests in flight at once (${figures})`);
      assert.deepEqual(log.short, [], `each request after the delay (${figures})`);
      assert.equal(manager.registry.listenerCount, 0, 'the finished crawls stopped listening to the worker\'s registry');
    } finally {
      await site.close();
    }
  });
}
