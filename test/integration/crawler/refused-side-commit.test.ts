/**
 * A commit refused outside a page's own (the capture of robots.txt, a feed poll) leaves its records
 * in the WARC file unacknowledged, and from then on no capture behind them may be acknowledged
 * (CommitSequencer.mayAcknowledge): every page after it gives its URL back. Real parts: a migrated
 * SQLite database that refuses robots.txt's capture row (a trigger, as a locked or failing database
 * refuses a write), the engine, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { icdSchema } from '../../../worker/icd/schema';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { insertCrawl } from '../../support/crawl-rows';
import { withTempDir } from '../../support/temp-dir';

test('a refused commit of a robots.txt capture pauses the crawl rather than finishing it or fetching its pages again and again', { timeout: 60_000 }, async () => {
  const served: Record<string, number> = {};
  const server = createServer((req, res) => {
    served[req.url ?? ''] = (served[req.url ?? ''] ?? 0) + 1;
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<a href="/a">a</a> <a href="/b">b</a> <a href="http://localhost:${port}/c">c</a>`);
    if (req.url === '/a' || req.url === '/b' || req.url === '/c') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${req.url}</p>`);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  try {
    await withTempDir('tm-refused-side-', async (dir) => {
      const db = openSqlite(join(dir, 'state.db'));
      applyMigrations(db, resolve('prisma/migrations'));
      const icd = icdSchema.parse({ name: 'Refused', seeds: [`${origin}/`, `http://localhost:${port}/c`], scope: { includeFavicon: false }, politeness: { enabled: false }, aah: { enabled: false } });
      const crawlId = insertCrawl(db, icd);
      db.exec("CREATE TRIGGER refuse_robots BEFORE INSERT ON Capture WHEN NEW.url LIKE 'http://localhost:%/robots.txt' BEGIN SELECT RAISE(ABORT, 'refused'); END");
      const warcDir = join(dir, 'warcs');
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') });
      const run = engine.run();
      const outcome = await Promise.race([run, sleep(5_000).then(() => 'still running')]);
      if (outcome === 'still running') await engine.stop();
      await run.catch(() => undefined);
      assert.equal(outcome, 'paused', `the crawl pauses (served: ${JSON.stringify(served)})`);
      // With the reason: the cockpit's worker leaves it paused for the archivist rather than starting it again and again.
      assert.match(engine.pausedBecause ?? '', /^Paused: the database refused to store a capture \(.+\)\. Nothing acknowledged is lost; .*Resume the crawl once the database takes writes again\.$/);
      for (const path of ['/', '/a', '/b', '/c']) assert.ok((served[path] ?? 0) <= 1, `${path} is not fetched again and again (${served[path]} times)`);
      // Its WARC files are left for the next start to cut back to what the database acknowledged.
      assert.ok(readdirSync(warcDir).some((n) => n.endsWith('.warc.gz.open')));

      db.exec('DROP TRIGGER refuse_robots');
      assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') }).run(), 'finished');
      const pages = db.prepare("SELECT url FROM Capture WHERE crawlId = ? AND url NOT LIKE '%/robots.txt' ORDER BY url").pluck().all(crawlId);
      assert.deepEqual(pages, [`${origin}/`, `${origin}/a`, `${origin}/b`, `http://localhost:${port}/c`].sort(), 'resumed, each page is stored once');
      assert.equal(db.prepare("SELECT COUNT(*) FROM CrawlLogEntry WHERE outcome != 'ok'").pluck().get(), 0, 'no page recorded as failed');
      db.close();
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
