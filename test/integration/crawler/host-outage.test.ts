/**
 * A host that stops answering part-way through a crawl (Heritrix's snoozed queue): after 3 URLs in
 * a row without an answer it goes into back-off, one URL is tried at each back-off's end, the wait
 * doubling, and once it has given no answer for hostGiveUpMs its waiting URLs fail as
 * host-unreachable, in one crawl-log entry, and the crawl ends. Each of its queued URLs was
 * requested on its own (with its retries and timeouts) before: a site going silent with 1,000 URLs
 * left ran for hours. A second host is captured meanwhile, not held back. And a host that comes back
 * during its back-off has every page captured, once.
 * Real parts: loopback servers (one accepting connections and never answering), a migrated SQLite
 * database, the crawl engine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { readHostQueues } from '../../../worker/frontier/host-queues';
import type { CrawlStats } from '../../../worker/events/messages';
import { serveOn, withCrawl, withSiteCrawl } from '../../support/site-crawl';
import { until } from '../../support/engine-run';

const PAGES = 100;
const links = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `<a href="${prefix}${i}">${i}</a>`).join('');
const html = (res: ServerResponse, body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
const robots = (res: ServerResponse) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');

/** A host whose robots.txt, `/` (linking to PAGES pages) and first two pages answer; from the third page on it accepts and never answers. */
async function goingSilent() {
  let silent = false;
  const held: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (!silent && req.url === '/robots.txt') return robots(res);
    if (!silent && req.url === '/') return html(res, links('/p', PAGES));
    if (!silent && (req.url === '/p0' || req.url === '/p1')) return html(res, '<p>still here</p>');
    silent = true;
    host.unanswered++;
    held.push(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const host = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    unanswered: 0,
    close: () => (server.closeAllConnections(), server.close()),
  };
  return host;
}

const outageLimits = { headersTimeoutMs: 300, totalTimeoutMs: 1_000, maxRetries: 0, hostFailuresBeforeBackoff: 3, hostBackoffMs: 200, hostGiveUpMs: 1_500 };

for (const polite of [false, true]) {
  test(`a host that goes silent is backed off, tried, and given up; the crawl ends, another host captured meanwhile (politeness ${polite ? 'on' : 'off'})`, { timeout: 60_000 }, async () => {
    const silent = await goingSilent();
    const other = await serveOn('127.0.0.2', (req, res) => {
      if (req.url === '/robots.txt') return robots(res);
      html(res, req.url === '/' ? links('/b', 20) : '<p>an answering page</p>');
    });
    try {
      const politeness = polite ? { enabled: true, minDelayMs: 0, maxDelayMs: 20, delayFactor: 0 } : { enabled: false, concurrency: 4 };
      await withCrawl('tm-host-outage-', { seeds: [`${silent.origin}/`, `${other.origin}/`], name: 'Silent host', politeness, limits: outageLimits }, async ({ dir, db, icd, crawlId }) => {
        const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
        const started = Date.now();
        const run = engine.run();
        // While it waits, its counters and the host-queues report say so.
        let waitingStats: CrawlStats | null = null;
        let listed: ReturnType<typeof readHostQueues>['queues'][number] | undefined;
        await until('the host is in back-off', () => {
          const s = engine.stats();
          if (s.hostsInBackoff) waitingStats = s;
          listed ??= readHostQueues(db, crawlId, 10).queues.find((q) => q.backoff);
          return waitingStats !== null && listed !== undefined;
        }, 20_000);
        assert.equal(await run, 'finished');
        const tookMs = Date.now() - started;

        const host = new URL(silent.origin).host;
        assert.equal(waitingStats!.hostsInBackoff, 1);
        assert.ok(Date.parse(waitingStats!.nextHostTryAt!) > started);
        assert.equal(listed!.host, host);
        assert.ok(listed!.queued > 50, `its URLs wait in the queue: ${listed!.queued}`);
        assert.ok(listed!.backoff!.nextTryAt > listed!.backoff!.since);
        assert.equal(listed!.backoff!.reason, 'headers-timeout');

        // 3 URLs in a row, those in flight then, and one a try: not one a URL.
        assert.ok(silent.unanswered >= 3 + 2 && silent.unanswered <= 16, `requests the silent host got: ${silent.unanswered}`);
        assert.ok(tookMs < 15_000, `the crawl ended in ${tookMs} ms`);

        const entries = db.prepare("SELECT url, message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'host-backoff' ORDER BY id").all(crawlId) as { url: string; message: string }[];
        const messages = entries.map((e) => e.message);
        assert.ok(entries.every((e) => e.url.startsWith(`${silent.origin}/p`)), 'logged under a URL of the host');
        assert.match(messages[0]!, new RegExp(`^no answer from ${host} to 3 URLs in a row \\(headers-timeout\\) \\(the 3 URLs are queued again\\): none of its URLs is requested until \\S+Z, when one is tried \\(the wait doubles at each try without an answer, up to 30 min, and ends at its first answer; its waiting URLs are given up after 2 s without an answer\\)$`));
        const tries = messages.slice(1, -1);
        assert.ok(tries.length >= 1 && tries.length <= 4, messages.join('\n'));
        tries.forEach((m, i) => assert.match(m, new RegExp(`^still no answer from ${host} \\(headers-timeout\\) at try ${i + 1}( \\(the URL is queued again\\))?: next try at \\S+Z$`)));

        const failed = db.prepare("SELECT reason, COUNT(*) AS n FROM frontier_url WHERE crawl_id = ? AND host = ? AND state = 3 GROUP BY reason").all(crawlId, host) as { reason: string; n: number }[];
        const unreachable = failed.find((f) => f.reason === 'host-unreachable')?.n ?? 0;
        assert.ok(unreachable >= PAGES - 2 - silent.unanswered, `failed host-unreachable: ${JSON.stringify(failed)}`);
        assert.equal(db.prepare('SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND state NOT IN (2, 3, 4)').pluck().get(crawlId), 0, 'nothing left waiting');
        assert.match(messages.at(-1)!, new RegExp(`^no answer from ${host} for \\d+ s \\(headers-timeout, ${tries.length + 1} tries\\): given up, its ${unreachable} waiting URLs failed as host-unreachable; they stay in the crawl's frontier with that reason`));
        assert.equal(engine.stats().failedByReason['host-unreachable'], unreachable, 'counted once each, though logged once for all');
        assert.equal(engine.stats().hostsInBackoff, undefined);
        assert.equal(db.prepare('SELECT COUNT(*) FROM engine_host_backoff').pluck().get(), 0, 'no host listed in back-off once the run ended');

        // The other host: every page captured, before the silent host was given up.
        const otherCaptures = db.prepare("SELECT COUNT(*) AS n, MAX(fetchedAt) AS last FROM Capture WHERE crawlId = ? AND url LIKE ? AND url NOT LIKE '%/robots.txt'").get(crawlId, `${other.origin}/%`) as { n: number; last: string };
        assert.equal(otherCaptures.n, 21);
        const givenUpAt = db.prepare("SELECT at FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'host-backoff' ORDER BY id DESC LIMIT 1").pluck().get(crawlId) as string;
        assert.ok(Date.parse(otherCaptures.last) < Date.parse(givenUpAt), 'not held back by the silent host');
      });
    } finally {
      silent.close();
      other.close();
    }
  });
}

test('a host that comes back during its back-off has every page captured once, and its back-off ends with an entry', { timeout: 60_000 }, async () => {
  let up = true;
  const server = createServer((req, res) => {
    // Down after its first two pages: the connection cut, and connections refused from then on.
    if (up && !['/robots.txt', '/', '/p0', '/p1'].includes(req.url!)) {
      up = false;
      server.close();
      server.closeAllConnections();
      return;
    }
    if (req.url === '/robots.txt') return robots(res);
    html(res, req.url === '/' ? links('/p', 30) : `<p>page ${req.url}</p>`);
  });
  const listen = (port: number) => new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  try {
    const limits = { maxRetries: 0, hostFailuresBeforeBackoff: 3, hostBackoffMs: 1_000, hostGiveUpMs: 30_000 };
    await withCrawl('tm-host-outage-back-', { seeds: [`${origin}/`], name: 'Host back', politeness: { enabled: false, concurrency: 2 }, limits }, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
      const run = engine.run();
      const backoffEntries = () => db.prepare("SELECT message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'host-backoff' ORDER BY id").pluck().all(crawlId) as string[];
      await until('the host is in back-off', () => !up && backoffEntries().length > 0, 20_000);
      await listen(port);
      assert.equal(await run, 'finished');

      const pages = db.prepare("SELECT url, COUNT(*) AS n FROM Capture WHERE crawlId = ? AND url NOT LIKE '%/robots.txt' GROUP BY url").all(crawlId) as { url: string; n: number }[];
      assert.equal(pages.length, 31, 'every page captured');
      assert.ok(pages.every((p) => p.n === 1), 'once each');
      assert.equal(db.prepare('SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND state != 2').pluck().get(crawlId), 0, 'no URL failed');
      // The failed fetches stay in the crawl log, but the URLs captured later are no failures in the counters
      // (the CLI's summary said "connect-refused 2" for a crawl that captured every page).
      assert.deepEqual([engine.stats().failed, engine.stats().failedByReason], [0, {}]);
      const host = `127.0.0.1:${port}`;
      const entries = backoffEntries();
      assert.match(entries[0]!, new RegExp(`^no answer from ${host} to 3 URLs in a row \\((connect-refused|connection-reset)\\) \\(the 3 URLs are queued again\\): none of its URLs is requested until`));
      assert.match(entries.at(-1)!, new RegExp(`^${host} answered again after \\d+ (ms|s) without an answer; its URLs are crawled as usual again$`));
      assert.equal(entries.length, 2);
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

// Found in review: counted as no answer, a name that does not resolve put its host into back-off,
// and a page whose images use a dead third-party name held the crawl open for hostGiveUpMs (2 h).
test('a host name that does not resolve fails its URLs at once, not backed off', { timeout: 60_000 }, async () => {
  const seeds = ['a', 'b', 'c', 'd', 'e'].map((p) => `http://dead-name.invalid/${p}`);
  await withCrawl('tm-host-outage-dns-', { seeds, name: 'Dead name', politeness: { enabled: false, concurrency: 2 }, limits: { maxRetries: 0 } }, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    assert.equal(engine.stats().failedByReason.dns, 5);
    assert.equal(db.prepare("SELECT COUNT(*) FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'host-backoff'").pluck().get(crawlId), 0, 'no back-off entry');
  });
});

/** Every page of a 20-page site and its home captured, once each, and no URL failed. */
function assertEveryPageOnce(db: Database.Database, crawlId: number): void {
  const pages = db.prepare("SELECT url, COUNT(*) AS n FROM Capture WHERE crawlId = ? AND url NOT LIKE '%/robots.txt' GROUP BY url").all(crawlId) as { url: string; n: number }[];
  assert.equal(pages.length, 21, 'every page captured');
  assert.ok(pages.every((p) => p.n === 1), 'once each');
  assert.equal(db.prepare('SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND state != 2').pluck().get(crawlId), 0, 'no URL failed');
}

// Found by an exploratory session: the tries took the URLs put back first, and each failed try kept
// its URL failed for good, so a host down through several tries lost as many pages once it answered again.
test('a host down through several tries, then answering: every page is captured once, none lost to the failed tries', { timeout: 60_000 }, async () => {
  let downUntil = 0;
  let served = 0;
  const site: RequestListener = (req, res) => {
    if (req.url === '/robots.txt') return robots(res);
    if (req.url === '/') return html(res, links('/p', 20));
    // From the third page on, every request is cut for 2.5 s (connection reset), then all are answered.
    if (++served === 3) downUntil = Date.now() + 2_500;
    if (Date.now() < downUntil) return void req.socket.destroy();
    html(res, `<p>page ${req.url}</p>`);
  };
  const limits = { maxRetries: 0, hostFailuresBeforeBackoff: 3, hostBackoffMs: 300, hostGiveUpMs: 60_000 };
  await withSiteCrawl('tm-host-outage-tries-', site, { name: 'Host down a while', politeness: { enabled: false, concurrency: 1 }, limits }, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    const entries = db.prepare("SELECT message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'host-backoff' ORDER BY id").pluck().all(crawlId) as string[];
    assert.ok(entries.filter((m) => m.startsWith('still no answer')).length >= 2, `several tries failed:\n${entries.join('\n')}`);
    assert.match(entries.at(-1)!, /answered again after .* \(\d+ tries failed\); its URLs are crawled as usual again \(the (URL is|\d+ URLs are) queued again\)$/);
    assertEveryPageOnce(db, crawlId);
    assert.deepEqual([engine.stats().failed, engine.stats().failedByReason], [0, {}]);
  });
});

// Found by an exploratory session: a paused crawl's last counters kept its host in back-off, and
// the URLs its failed tries kept failed (held in memory) stayed failed when the crawl was resumed.
test('a crawl paused during a back-off: no host left in back-off in its counters, and resumed, every page is captured once and none counted failed', { timeout: 60_000 }, async () => {
  let down = false;
  let served = 0;
  const site: RequestListener = (req, res) => {
    if (req.url === '/robots.txt') return robots(res);
    if (req.url === '/') return html(res, links('/p', 20));
    if (++served === 3) down = true;
    if (down) return void req.socket.destroy();
    html(res, `<p>page ${req.url}</p>`);
  };
  const limits = { maxRetries: 0, hostFailuresBeforeBackoff: 3, hostBackoffMs: 200, hostGiveUpMs: 600_000 };
  await withSiteCrawl('tm-host-outage-pause-', site, { name: 'Paused in a back-off', politeness: { enabled: false, concurrency: 1 }, limits }, async ({ dir, db, icd, crawlId }) => {
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    const first = engine();
    const run = first.run();
    const failedTries = () => db.prepare("SELECT COUNT(*) FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'host-backoff' AND message LIKE 'still no answer%'").pluck().get(crawlId) as number;
    await until('two tries failed', () => failedTries() >= 2, 20_000);
    await first.pause();
    assert.equal(await run, 'paused');
    const paused = first.stats();
    assert.equal(paused.hostsInBackoff, undefined, 'no host in back-off once the run ended');
    assert.equal(paused.nextHostTryAt, undefined);
    down = false;
    const second = engine();
    assert.equal(await second.run(), 'finished');
    assertEveryPageOnce(db, crawlId);
    // Its counters, counted again from the crawl log when it resumed: the failed fetches of the URLs put
    // back stay in the log, but are no failures (a resumed crawl counted them again).
    assert.deepEqual([second.stats().failed, second.stats().failedByReason], [0, {}]);
  });
});
