/**
 * A robots.txt request that gets nothing to archive (connection refused, no byte before the headers
 * timeout) has a crawl-log entry of its own: the robots.txt URL, no status, the fetch's failure
 * reason, its duration and retries, and a message saying what follows — as Heritrix logs a failed
 * robots.txt prerequisite. Before, only the pages it failed or excluded were logged. It is not
 * counted among the failures (an archived 5xx robots.txt is not either): the pages are, with no
 * duration or retries of their own (never requested). Real parts:
 * a migrated SQLite database, the engine, loopback servers and a closed loopback port.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { startRawServer } from '../../fixtures/servers/fixture-server';
import { freePort } from '../../support/free-port';
import { runUntil } from '../../support/engine-run';
import { withSiteCrawl, type SiteCrawl } from '../../support/site-crawl';
import { readHostsReport } from '../../../worker/crawler/hosts-report';
import { crawlLogText } from '../../../worker/store/crawl-log-text';

/** A live site: robots.txt allowing all, and its home page. */
const site: RequestListener = (req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
  if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>home</title>');
  res.writeHead(404).end();
};

interface LogRow { url: string; status: number | null; outcome: string; message: string; retries: number; durationMs: number }

const logOf = (db: Database.Database, crawlId: number, url: string) =>
  db.prepare('SELECT url, status, outcome, message, retries, durationMs FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, url) as LogRow[];

const engineOf = ({ crawlId, icd, db, dir }: SiteCrawl) =>
  new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), robotsBackoff: { baseMs: 100, maxMs: 200 } });

test('a refused robots.txt request is logged with its reason, retries and what follows; only the page counts as a failure, resumed too', { timeout: 15_000 }, async () => {
  const dead = `http://127.0.0.1:${await freePort()}`;
  await withSiteCrawl('tm-robots-unanswered-', site, (origin) => ({ name: 'refused robots', seeds: [`${dead}/`, `${origin}/`], limits: { maxRetries: 1 } }), async (crawl) => {
    const engine = engineOf(crawl);
    assert.equal(await engine.run(), 'finished');
    const [robots, ...more] = logOf(crawl.db, crawl.crawlId, `${dead}/robots.txt`);
    assert.deepEqual(more, [], 'one request of robots.txt: the host is settled as unreachable');
    assert.ok(robots, 'the robots.txt request is in the crawl log');
    assert.equal(robots.status, null);
    assert.equal(robots.outcome, 'connect-refused');
    assert.equal(robots.retries, 1);
    assert.match(robots.message, /^robots\.txt request got no answer \(.*ECONNREFUSED.*\); the host's URLs fail with this reason, unrequested, for 10 min; then robots\.txt is tried again$/);
    const [page] = logOf(crawl.db, crawl.crawlId, `${dead}/`);
    assert.equal(page?.outcome, 'connect-refused', 'the page fails as before');
    // Never requested: robots.txt's entry has the time and retries, which the page's must not count again.
    assert.deepEqual([page!.retries, page!.durationMs], [0, 0]);
    assert.deepEqual(engine.stats().failedByReason, { 'connect-refused': 1 }, 'the page, not robots.txt');
    // A run that opens the crawl again counts the crawl log's failures as the live counters did.
    const again = engineOf(crawl);
    assert.equal(await again.run(), 'finished');
    assert.deepEqual(again.stats().failedByReason, { 'connect-refused': 1 });
  });
});

// The hosts report counts requests: robots.txt's was one (failed), the page behind it was never made.
test('the hosts report counts a refused robots.txt as the host\'s one fetch, failed, and the page it kept from being requested as not requested', { timeout: 15_000 }, async () => {
  const dead = `http://127.0.0.1:${await freePort()}`;
  await withSiteCrawl('tm-robots-unanswered-hosts-', site, () => ({ name: 'refused robots, hosts report', seeds: [`${dead}/`], limits: { maxRetries: 0 } }), async (crawl) => {
    const engine = engineOf(crawl);
    assert.equal(await engine.run(), 'finished');
    const { hosts } = readHostsReport(crawl.db, crawl.crawlId, 10);
    assert.deepEqual(hosts, [{ host: new URL(dead).host, fetches: 1, ok: 0, failed: 1, excluded: 0, notRequested: 1, bytes: 0 }]);
    const [page] = crawl.db.prepare('SELECT outcome, notRequested FROM CrawlLogEntry WHERE crawlId = ? AND url = ?').all(crawl.crawlId, `${dead}/`);
    assert.deepEqual(page, { outcome: 'connect-refused', notRequested: 1 });
    assert.deepEqual(engine.stats().failedByReason, { 'connect-refused': 1 }, 'the page still counts among the failures');
    // Found by an exploratory session: the crawl log's file had no column for it, and the page read
    // "0" ms and 0 retries as if fetched. Its duration and retries are empty there: not applicable.
    const lines = [...crawlLogText(crawl.db, crawl.crawlId)].join('').trimEnd().split('\n').map((l) => l.split('\t'));
    const column = (name: string) => lines[0]!.indexOf(name);
    const line = (url: string) => lines.find((f) => f[column('url')] === url)!;
    const pick = (url: string) => ['duration_ms', 'retries', 'not_requested'].map((name) => line(url)[column(name)]);
    assert.deepEqual(pick(`${dead}/`), ['', '', '1']);
    const robots = line(`${dead}/robots.txt`);
    assert.deepEqual([robots[column('retries')], robots[column('not_requested')]], ['0', '0'], 'robots.txt was requested');
  });
});

// Told apart by its subject, not by how its message begins: an entry whose wording differs (written by
// another version) is still no page's failure when the crawl is resumed.
test('robots.txt\'s entries are marked as robots.txt\'s, and a resumed crawl leaves them out of the failures by that mark, whatever their message says', { timeout: 15_000 }, async () => {
  const dead = `http://127.0.0.1:${await freePort()}`;
  await withSiteCrawl('tm-robots-unanswered-subject-', site, (origin) => ({ name: 'refused robots, reworded', seeds: [`${dead}/`, `${origin}/`], limits: { maxRetries: 0 } }), async (crawl) => {
    assert.equal(await engineOf(crawl).run(), 'finished');
    const subjects = crawl.db.prepare('SELECT url, status, subject FROM CrawlLogEntry WHERE crawlId = ? ORDER BY url').all(crawl.crawlId);
    assert.deepEqual(subjects, [
      { url: `${crawl.origin}/`, status: 200, subject: null },
      { url: `${crawl.origin}/robots.txt`, status: 200, subject: 'robots' },
      { url: `${dead}/`, status: null, subject: null },
      { url: `${dead}/robots.txt`, status: null, subject: 'robots' },
    ].sort((a, b) => (a.url < b.url ? -1 : 1)));
    crawl.db.prepare("UPDATE CrawlLogEntry SET message = 'no answer to robots.txt: connection refused' WHERE crawlId = ? AND url = ?").run(crawl.crawlId, `${dead}/robots.txt`);
    const again = engineOf(crawl);
    assert.equal(await again.run(), 'finished');
    assert.deepEqual(again.stats().failedByReason, { 'connect-refused': 1 }, 'the page, not robots.txt');
  });
});

test('a robots.txt that never answers: each try is logged (retried, then the host settled); a redirect to a closed port: tries spent, disallowing', { timeout: 15_000 }, async () => {
  const silent = await startRawServer(() => undefined);
  const closed = `http://127.0.0.1:${await freePort()}/robots.txt`;
  // A live robots.txt that redirects to a port nothing listens on: a hop's failure, not the origin's.
  const redirecting: RequestListener = (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(301, { location: closed }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title>');
  };
  try {
    await withSiteCrawl('tm-robots-unanswered-silent-', redirecting, (origin) => ({ name: 'silent robots', seeds: [`${silent.url}/`, `${origin}/`], limits: { maxRetries: 0, headersTimeoutMs: 300, totalTimeoutMs: 1_000 } }), async (crawl) => {
      assert.equal(await engineOf(crawl).run(), 'finished');
      const tries = logOf(crawl.db, crawl.crawlId, `${silent.url}/robots.txt`);
      assert.deepEqual(tries.map((t) => [t.status, t.outcome, t.retries]), [[null, 'headers-timeout', 0], [null, 'headers-timeout', 0]], JSON.stringify(tries));
      assert.match(tries[0]!.message, /^robots\.txt request got no answer \(.*\); robots\.txt is tried again in \d+ ms; the host's URLs wait$/);
      assert.match(tries[1]!.message, /; the host's URLs fail with this reason, unrequested, for 10 min; then robots\.txt is tried again$/);
      assert.ok(tries.every((t) => t.durationMs >= 250), `each waited out the headers timeout: ${tries.map((t) => t.durationMs)}`);
      const [page] = logOf(crawl.db, crawl.crawlId, `${silent.url}/`);
      assert.deepEqual([page?.outcome, page?.retries, page?.durationMs], ['headers-timeout', 0, 0], 'the page, never requested, repeats none of robots.txt\'s time');

      const hops = logOf(crawl.db, crawl.crawlId, closed);
      assert.deepEqual(hops.map((h) => [h.status, h.outcome]), Array(3).fill([null, 'connect-refused']), JSON.stringify(hops));
      // Logged under the closed port's URL, what follows is the redirecting origin's: the entry names it.
      const redirected = `; asked for ${crawl.origin}/robots.txt, which redirected here: `;
      assert.ok(hops[0]!.message.includes(`${redirected}robots.txt is tried again in `) && hops[0]!.message.endsWith("; the host's URLs wait"), hops[0]!.message);
      assert.ok(hops[2]!.message.endsWith(`${redirected}its tries are spent: the host is treated as disallowing every URL (robots-unavailable)`), hops[2]!.message);
      assert.equal(logOf(crawl.db, crawl.crawlId, `${crawl.origin}/`)[0]?.outcome, 'robots-unavailable');
    });
  } finally {
    await silent.close();
  }
});

test('a feed poll whose robots.txt is refused logs the robots.txt request too (the same robots cache as pages), and repeats none of its retries', { timeout: 15_000 }, async () => {
  const dead = `http://127.0.0.1:${await freePort()}`;
  const fields = { name: 'feed on a dead host', coherence: { feeds: [`${dead}/feed.xml`], minFeedPollMinutes: 1 } };
  await withSiteCrawl('tm-robots-unanswered-feed-', site, fields, async (crawl) => {
    const engine = new CrawlEngine({ crawlId: crawl.crawlId, icd: crawl.icd, db: crawl.db, warcDir: join(crawl.dir, 'warcs'), spoolDir: join(crawl.dir, 'spool'), minuteMs: 300 });
    await runUntil(engine, 'the feed poll is logged', () => logOf(crawl.db, crawl.crawlId, `${dead}/feed.xml`).length > 0);
    const [robots] = logOf(crawl.db, crawl.crawlId, `${dead}/robots.txt`);
    assert.deepEqual([robots?.status, robots?.outcome], [null, 'connect-refused']);
    assert.match(robots!.message, /^robots\.txt request got no answer \(.*ECONNREFUSED.*\); the host's URLs fail with this reason, unrequested, for 10 min/);
    const [poll] = logOf(crawl.db, crawl.crawlId, `${dead}/feed.xml`);
    assert.equal(poll!.outcome, 'connect-refused', 'the poll fails as before');
    // Never requested either: robots.txt's entry has the retries.
    assert.ok(robots!.retries > 0, JSON.stringify(robots));
    assert.deepEqual([poll!.retries, poll!.durationMs], [0, 0]);
    // So the poll is marked, and the hosts report counts the robots.txt request as the host's one fetch.
    const marks = crawl.db.prepare('SELECT notRequested FROM CrawlLogEntry WHERE crawlId = ? AND url = ?').all(crawl.crawlId, `${dead}/feed.xml`) as { notRequested: number }[];
    assert.ok(marks.length > 0 && marks.every((m) => m.notRequested === 1), JSON.stringify(marks));
    const host = readHostsReport(crawl.db, crawl.crawlId, 10).hosts.find((h) => h.host === new URL(dead).host);
    assert.deepEqual([host?.fetches, host?.failed, host?.notRequested], [1, 1, marks.length], JSON.stringify(host));
  });
});

// Found by an exploratory session: an image on a host refusing connections was logged "…; the page
// was not requested". It is no page: the entry says the URL was not requested.
test('a requisite kept from being requested by its host\'s unanswered robots.txt is not called a page', { timeout: 15_000 }, async () => {
  const dead = `http://127.0.0.1:${await freePort()}`;
  const withImage: RequestListener = (req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>home</title><img src="${dead}/pic.png">`);
    site(req, res);
  };
  await withSiteCrawl('tm-robots-unanswered-image-', withImage, { name: 'refused robots, image', limits: { maxRetries: 0 } }, async (crawl) => {
    assert.equal(await engineOf(crawl).run(), 'finished');
    const [image] = logOf(crawl.db, crawl.crawlId, `${dead}/pic.png`);
    assert.equal(image?.outcome, 'connect-refused');
    assert.match(image!.message, /^no connection to the host for robots\.txt \(.*ECONNREFUSED.*\); the URL was not requested$/);
  });
});
