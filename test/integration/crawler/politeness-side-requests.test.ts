/**
 * Feed polls and recrawl rounds fetch outside the frontier's leases, while the crawl's own pages
 * of the same host may be fetched: they must take turns on the host's politeness clock too. Real
 * parts: a migrated SQLite database, the engine, a loopback site that logs each request's start
 * and end (a home page, two pages, a feed listing one article).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { icdSchema } from '../../../worker/icd/schema';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { insertCrawl } from '../../support/crawl-rows';
import { withTempDir } from '../../support/temp-dir';

const DELAY_MS = 150;
const MINUTE_MS = 600;

test('feed polls and recrawl rounds wait their turn on the host\'s clock with the crawl\'s own pages', { timeout: 120_000 }, async () => {
  const log: { path: string; at: number; end?: number }[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const entry: (typeof log)[number] = { path, at: Date.now() };
    log.push(entry);
    const send = (status: number, type: string, body: string) => {
      entry.end = Date.now();
      res.writeHead(status, { 'content-type': type }).end(body);
    };
    setTimeout(() => {
      if (path === '/') return send(200, 'text/html', '<a href="/a">a</a> <a href="/b">b</a>');
      if (path === '/a' || path === '/b' || path === '/articles/1') return send(200, 'text/html', `<p>${path}</p>`);
      if (path === '/feed.xml') return send(200, 'application/rss+xml', `<?xml version="1.0"?><rss version="2.0"><channel><title>Quay</title><item><title>One</title><link>${origin}/articles/1</link></item></channel></rss>`);
      send(404, 'text/plain', 'not found');
    }, 20);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await withTempDir('tm-polite-side-', async (dir) => {
      const db = openSqlite(join(dir, 'state.db'));
      applyMigrations(db, resolve('prisma/migrations'));
      const icd = icdSchema.parse({
        name: 'Quay', seeds: [`${origin}/`], aah: { enabled: false },
        politeness: { minDelayMs: DELAY_MS, maxDelayMs: DELAY_MS, delayFactor: 0, concurrency: 4 },
        coherence: { recrawlIntervalMinutes: 1, feeds: [`${origin}/feed.xml`], minFeedPollMinutes: 1 },
      });
      const crawlId = insertCrawl(db, icd);
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: MINUTE_MS });
      const outcome = engine.run();
      for (const end = Date.now() + 60_000; (engine.incremental?.rounds.length ?? 0) < 2 && Date.now() < end; ) await sleep(20);
      await engine.stop();
      assert.equal(await outcome, 'stopped');
      assert.ok(engine.incremental!.rounds.length >= 2, 'two recrawl rounds ran');
      db.close();
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
  const sorted = [...log].sort((a, b) => a.at - b.at);
  assert.ok(sorted.filter((r) => r.path === '/feed.xml').length >= 2, 'the feed was polled during the crawl');
  const problems: string[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const [prev, cur] = [sorted[i - 1]!, sorted[i]!];
    if (prev.end === undefined || prev.end > cur.at) problems.push(`${prev.path} and ${cur.path} in flight at once`);
    // 5 ms of slack for timer granularity (the engine counts from when it read the response's end).
    else if (cur.at - prev.end < DELAY_MS - 5) problems.push(`${prev.path} → ${cur.path}: ${cur.at - prev.end} ms`);
  }
  assert.deepEqual(problems, [], `${sorted.length} requests: ${sorted.map((r) => r.path).join(' ')}`);
});
