/**
 * An IPv6 host in the ICD's scope.allowedHosts, written as archivists write an address: bare (`::1`),
 * in brackets as URLs write it, in full or in capitals. A bare one matched no URL (URLs name the host
 * `[::1]`), so a link to the site on it was refused as out of scope. Real parts: a loopback server
 * on 127.0.0.1 linking to one on ::1, a migrated SQLite database, the crawl engine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

const html = '<!doctype html><title>v6</title>';

test('a link to http://[::1]:PORT/ is in scope whether allowedHosts names ::1 bare, in brackets, in full or in capitals', { timeout: 60_000 }, async () => {
  const v6 = createServer((req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((r) => v6.listen(0, '::1', r));
  const v6Origin = `http://[::1]:${(v6.address() as AddressInfo).port}`;
  try {
    for (const entry of ['::1', '[::1]', '0:0:0:0:0:0:0:1', '0000:0000:0000:0000:0000:0000:0000:0001', '[::1]:8080', 'http://[::1]/']) {
      const seedSite: RequestListener = (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<a href="${v6Origin}/page">v6</a>`);
      await withSiteCrawl('tm-ipv6-allowed-', seedSite, { name: `IPv6 allowed host ${entry}`, scope: { allowedHosts: [entry] } }, async ({ dir, db, icd, crawlId }) => {
        const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
        assert.equal(await engine.run(), 'finished');
        const captured = db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY id').pluck().all(crawlId) as string[];
        assert.ok(captured.includes(`${v6Origin}/page`), `allowedHosts ${JSON.stringify(entry)}: ${v6Origin}/page captured (captured: ${captured.join(', ')}; excluded: ${JSON.stringify(engine.stats().excludedByReason)})`);
      });
    }
  } finally {
    v6.closeAllConnections();
    v6.close();
  }
});
