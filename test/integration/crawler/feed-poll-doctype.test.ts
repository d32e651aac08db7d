/**
 * A feed the ICD names, polled, whose DOCTYPE declares an entity and names an external DTD: the
 * poll is `ok` and its items are read, the entity left as written and the DTD not requested, and
 * its crawl-log entry says so, with the references left as written; a poll of a feed without such
 * a DOCTYPE says plain `feed poll`.
 * Real parts: a migrated SQLite database, the engine with its feed monitor on a shortened minute,
 * a loopback site serving the feeds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

const MINUTE_MS = 300;

test("a polled feed's DOCTYPE entities and external DTD: items read, nothing expanded nor fetched, the poll's entry saying so", { timeout: 60_000 }, async () => {
  let origin = '';
  const requested: string[] = [];
  const rss = (doctype: string, item: string) => `<?xml version="1.0"?>${doctype}<rss version="2.0"><channel><title>T</title><item><title>&e; &amp; more</title><link>${origin}${item}</link></item></channel></rss>`;
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    const send = (body: string) => void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(body);
    if (path === '/dtd.xml') return send(rss(`<!DOCTYPE rss SYSTEM "${origin}/rss.dtd" [<!ENTITY e "expanded">]>`, '/a?x=&e;'));
    if (path === '/plain.xml') return send(rss('', '/b'));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>page</p>');
  };
  const fields = (o: string) => ({ name: 'DOCTYPE feed', coherence: { feeds: [`${o}/dtd.xml`, `${o}/plain.xml`], minFeedPollMinutes: 1 } });
  await withSiteCrawl('tm-feed-doctype-', site, fields, async ({ origin: o, dir, db, crawlId, icd }) => {
    origin = o;
    const entries = (path: string) => db.prepare('SELECT outcome, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, `${origin}${path}`) as { outcome: string; message: string | null }[];
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: MINUTE_MS });
    const run = engine.run();
    for (const end = Date.now() + 30_000; (entries('/dtd.xml').length === 0 || entries('/plain.xml').length === 0 || entries('/a?x=&e;').length === 0) && Date.now() < end; ) await sleep(10);
    await engine.stop();
    assert.equal(await run, 'stopped');

    assert.deepEqual(entries('/dtd.xml')[0], {
      outcome: 'ok',
      message: `feed poll; the feed's DOCTYPE declares 1 entity (not expanded) and names the external DTD "${origin}/rss.dtd" (not fetched), as only XML's predefined entities and character references are read: 2 entity references left as written (&e;)`,
    });
    assert.deepEqual(entries('/plain.xml')[0], { outcome: 'ok', message: 'feed poll' });
    assert.equal(entries('/a?x=&e;')[0]?.outcome, 'ok', 'its item, the reference as written, is crawled');
    assert.equal(requested.includes('/rss.dtd'), false, 'the DTD is not requested');
  });
});
