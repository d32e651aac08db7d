/**
 * Extra hops (scope.extraHops; Browsertrix's extra hops, Heritrix's transitive hops): a crawl of one
 * site also captures the pages on others that its pages reach through at most that many
 * consecutive links out, and the redirects completing them, but nothing further. Real parts: the
 * engine, a migrated SQLite database, loopback sites on distinct addresses (distinct hosts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { DDL } from '../../../worker/frontier/frontier-sql';
import { urlHash } from '../../../worker/frontier/url-hash';
import { inspectUrl } from '../../../worker/frontier/url-inspection';
import { inspectionVerdict } from '../../../worker/frontier/url-outcome';
import type { Icd } from '../../../worker/icd/schema';
import { hostKeyOf } from '../../../worker/url';
import { serveOn, withCrawl, withSiteCrawl } from '../../support/site-crawl';

test('with one extra hop the pages the site links to elsewhere are captured, and nothing past them', { timeout: 60_000 }, async () => {
  const elsewhere = createServer((req, res) => {
    if (req.url === '/moved') return void res.writeHead(301, { location: '/landing' }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${req.url}</title><a href="/further">further</a> <a href="http://127.0.0.3:9/far">far</a>`);
  });
  await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.2', r));
  const other = `http://127.0.0.2:${(elsewhere.address() as AddressInfo).port}`;
  try {
    for (const extraHops of [1, 0]) {
      const site = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
        if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Home</title><a href="/about">about</a> <a href="${other}/cited">cited</a> <a href="${other}/moved">moved</a>`);
        res.writeHead(200, { 'content-type': 'text/html' }).end('<title>About</title>');
      };
      await withSiteCrawl(`tm-extra-hops-${extraHops}-`, site, { name: 'Extra hops', scope: { extraHops } }, async ({ origin, dir, db, icd, crawlId }) => {
        assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') }).run(), 'finished');
        const captured = (db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(crawlId) as string[]).filter((u) => !u.endsWith('/robots.txt'));
        const excluded = Object.fromEntries(db.prepare('SELECT url, reason FROM frontier_url WHERE crawl_id = ? AND state = 4').raw().all(crawlId) as [string, string][]);
        if (extraHops === 1) {
          assert.deepEqual(captured, [`${origin}/`, `${origin}/about`, `${other}/cited`, `${other}/landing`, `${other}/moved`].sort(), 'the redirect completing a linked page is followed');
          assert.equal(excluded[`${other}/further`], 'out-of-scope-host', 'the cited page\'s own link on its host is not followed');
          assert.equal(excluded['http://127.0.0.3:9/far'], 'out-of-scope-host');
          // The URL inspector: a page taken as an extra hop, one refused past it, and one not seen,
          // which the crawl would take from a page in the scope, so it is not called out of scope.
          const cited = inspectUrl(db, crawlId, icd, `${other}/cited`);
          assert.deepEqual([cited.entry?.scopeHops, cited.takenAs], [1, 'extra-hops']);
          assert.match(inspectionVerdict(cited), /outside the scope, 1 link from it: taken within the crawl's 1 extra hop\./);
          const further = inspectUrl(db, crawlId, icd, `${other}/further`);
          assert.deepEqual([further.entry?.state, further.viaScopeHops], ['excluded', 1]);
          assert.match(inspectionVerdict(further), /found on lies 1 link outside the scope; the crawl takes at most 1 extra hop\./);
          const unseen = inspectUrl(db, crawlId, icd, `${other}/unlinked`);
          assert.deepEqual(unseen.scope, { inScope: false, reason: 'out-of-scope-host', takenIf: ['extra-hops', 'requisite'] });
          assert.doesNotMatch(inspectionVerdict(unseen), /would not take it/);
          assert.match(inspectionVerdict(unseen), /depends on the page linking to it/);
        } else {
          assert.deepEqual(captured, [`${origin}/`, `${origin}/about`]);
          assert.equal(excluded[`${other}/cited`], 'out-of-scope-host');
          const unseen = inspectUrl(db, crawlId, icd, `${other}/unlinked`);
          assert.match(inspectionVerdict(unseen), /its scope would not take it: out-of-scope-host\. Only as a page requisite/);
        }
      });
    }
  } finally {
    elsewhere.closeAllConnections();
    elsewhere.close();
  }
});

/**
 * A chain of hosts, one loopback address each: the seed site (127.0.0.11) → out1 → out2 (through a
 * redirect, which completes the hop) → out3 → out4, and out3 → the seed site's /inner → out4/again,
 * a first hop again once back in scope. Pages list their links; robots.txt is missing everywhere.
 */
async function hopChain() {
  const links: Record<string, string[]> = {};
  const servers = await Promise.all(['11', '12', '13', '14', '15'].map((n) => serveOn(`127.0.0.${n}`, (req, res) => {
    const own = links[`http://127.0.0.${n}`];
    if (req.url === '/moved') return void res.writeHead(301, { location: '/' }).end();
    if (req.url === '/robots.txt' || !own) return void res.writeHead(404).end();
    const hrefs = req.url === '/' ? own : req.url === '/inner' ? [`${servers[4]!.origin}/again`] : [];
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${req.url}</title>${hrefs.map((h) => `<a href="${h}">${h}</a>`).join(' ')}`);
  })));
  const [seed, out1, out2, out3, out4] = servers.map((s) => s.origin) as [string, string, string, string, string];
  for (const s of servers) links[s.origin.replace(/:\d+$/, '')] = [];
  links[seed.replace(/:\d+$/, '')] = [`${out1}/`];
  links[out1.replace(/:\d+$/, '')] = [`${out2}/moved`];
  links[out2.replace(/:\d+$/, '')] = [`${out3}/`];
  links[out3.replace(/:\d+$/, '')] = [`${out4}/`, `${seed}/inner`];
  return { seed, out1, out2, out3, out4, close: () => servers.forEach((s) => s.close()) };
}

async function crawlOnce(db: Database.Database, dir: string, icd: Icd, crawlId: number) {
  assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') }).run(), 'finished');
  const captured = (db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(crawlId) as string[]).filter((u) => !u.endsWith('/robots.txt'));
  const excluded = Object.fromEntries(db.prepare('SELECT url, reason FROM frontier_url WHERE crawl_id = ? AND state = 4').raw().all(crawlId) as [string, string][]);
  return { captured, excluded };
}

test('extra hops 0–3: out-of-scope pages are captured through that many consecutive links out, redirects completing a hop, the count starting again in scope', { timeout: 120_000 }, async () => {
  const { seed, out1, out2, out3, out4, close } = await hopChain();
  try {
    const expected: Record<number, { captured: string[]; cut: string }> = {
      0: { captured: [`${seed}/`], cut: `${out1}/` },
      1: { captured: [`${seed}/`, `${out1}/`], cut: `${out2}/moved` },
      2: { captured: [`${seed}/`, `${out1}/`, `${out2}/moved`, `${out2}/`], cut: `${out3}/` },
      3: { captured: [`${seed}/`, `${out1}/`, `${out2}/moved`, `${out2}/`, `${out3}/`, `${seed}/inner`, `${out4}/again`], cut: `${out4}/` },
    };
    for (const extraHops of [0, 1, 2, 3]) {
      await withCrawl(`tm-extra-hops-chain-${extraHops}-`, { name: 'Hop chain', seeds: [`${seed}/`], scope: { extraHops } }, async ({ dir, db, icd, crawlId }) => {
        const { captured, excluded } = await crawlOnce(db, dir, icd, crawlId);
        assert.deepEqual(captured, [...expected[extraHops]!.captured].sort(), `extraHops ${extraHops}`);
        assert.equal(excluded[expected[extraHops]!.cut], 'out-of-scope-host', `extraHops ${extraHops}: the first hop too many`);
        if (extraHops < 3) return;
        const hops = db.prepare('SELECT scope_hops FROM frontier_url WHERE crawl_id = ? AND url = ?').pluck();
        assert.deepEqual([`${out2}/moved`, `${out2}/`, `${out3}/`, `${seed}/inner`, `${out4}/again`].map((u) => hops.get(crawlId, u)), [2, 2, 3, 0, 1], 'hops from the scope');
      });
    }
  } finally {
    close();
  }
});

test('a frontier stored before it counted hops resumes: its column is added, a page taken as one extra hop still counts as one', { timeout: 60_000 }, async () => {
  const { seed, out1, out2, close } = await hopChain();
  try {
    await withCrawl('tm-extra-hops-old-frontier-', { name: 'Old frontier', seeds: [`${seed}/`], scope: { extraHops: 2 } }, async ({ dir, db, icd, crawlId }) => {
      // The frontier as the version before stored it: no scope_hops column; the seed fetched, the
      // page it links to on out1 queued (one extra hop then).
      db.exec(DDL.replace(/,\s*scope_hops INTEGER/, ''));
      assert.ok(!(db.prepare('PRAGMA table_info(frontier_url)').all() as { name: string }[]).some((c) => c.name === 'scope_hops'));
      const insert = db.prepare(
        `INSERT INTO frontier_url (crawl_id, url_hash, url, host, depth, kind, via_url, state, reason, precedence, score_raw, score_count, score_sum, discovered_at, breakdown)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 0.5, 0.5, 1, 0.5, 0, NULL)`,
      );
      insert.run(crawlId, urlHash(`${seed}/`), `${seed}/`, hostKeyOf(`${seed}/`), 0, 'seed', null, 2);
      insert.run(crawlId, urlHash(`${out1}/`), `${out1}/`, hostKeyOf(`${out1}/`), 1, 'navigation', `${seed}/`, 0);
      const { captured } = await crawlOnce(db, dir, icd, crawlId);
      assert.deepEqual(captured, [`${out1}/`, `${out2}/moved`, `${out2}/`].sort(), 'out1 counted as hop 1: out2 is hop 2, its redirect completing it');
      const hops = db.prepare('SELECT scope_hops FROM frontier_url WHERE crawl_id = ? AND url = ?').pluck();
      assert.deepEqual([`${out1}/`, `${out2}/moved`, `${out2}/`].map((u) => hops.get(crawlId, u)), [null, 2, 2]);
    });
  } finally {
    close();
  }
});

test('a recrawl round counts a changed page\'s new links out from the hops the page was found at', { timeout: 90_000 }, async () => {
  let changed = false;
  const servers = await Promise.all(['21', '22', '23', '24'].map((n) => serveOn(`127.0.0.${n}`, (req, res) => {
    const [seed, out1, out2, out3] = servers.map((s) => s.origin) as [string, string, string, string];
    const here = `http://127.0.0.${n}`;
    const page = (...hrefs: string[]) => void res.writeHead(200, { 'content-type': 'text/html' }).end(hrefs.map((h) => `<a href="${h}">${h}</a>`).join(' '));
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (seed.startsWith(here) && req.url === '/') return page(`${out1}/`);
    // Once visited, out1 (one hop out) links another page of out2 (two hops), and out2 (two hops)
    // a third host (three hops, one too many).
    if (out1.startsWith(here) && req.url === '/') return changed ? page(`${out2}/`, `${out2}/extra`) : page(`${out2}/`);
    if (out2.startsWith(here) && req.url === '/') return changed ? page(`${out3}/`) : page();
    page();
  })));
  const [seed, , out2, out3] = servers.map((s) => s.origin) as [string, string, string, string];
  try {
    await withCrawl('tm-extra-hops-recrawl-', { name: 'Hops on recrawl', seeds: [`${seed}/`], scope: { extraHops: 2 }, coherence: { recrawlIntervalMinutes: 1 } }, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
      const run = engine.run();
      const captures = (url: string) => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, url) as number;
      for (const end = Date.now() + 20_000; captures(`${out2}/`) === 0 && Date.now() < end; ) await sleep(20);
      changed = true;
      for (const end = Date.now() + 30_000; (captures(`${out2}/`) < 2 || captures(`${out2}/extra`) === 0) && Date.now() < end; ) await sleep(20);
      await sleep(1000);
      await engine.stop();
      assert.equal(await run, 'stopped');
      assert.ok(captures(`${out2}/`) >= 2, 'out2 was recrawled');
      assert.ok(captures(`${out2}/extra`) >= 1, 'the new link of out1, a second hop, was followed');
      assert.equal(captures(`${out3}/`), 0, 'the new link of out2, a third hop out, was not');
    });
  } finally {
    for (const s of servers) s.close();
  }
});
