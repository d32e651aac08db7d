// Frontier speed: link-adds/s (with ~70% duplicates), lease+complete/s over 1,000 hosts with
// politeness on (simulated clock), resume time, peak RSS. Also compares two seen-set keys.
// Run: npx tsx bench/frontier-speed.ts [--links 1000000] [--leases 100000] [--hosts 1000] [--compare-seen]
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SqliteFrontier, urlHash, type Candidate, type CrawlFrontierConfig } from '../worker/frontier';
import { PolitenessRegistry, SimulatedClock } from '../worker/politeness';
import { openSqlite } from '../worker/store/sqlite';
import { mulberry32 } from './support/mulberry32';

const { values } = parseArgs({
  options: {
    links: { type: 'string', default: '1000000' },
    leases: { type: 'string', default: '100000' },
    hosts: { type: 'string', default: '1000' },
    batch: { type: 'string', default: '50' },
    'compare-seen': { type: 'boolean', default: false },
    /** Extra pragmas for the crawl DB handle, e.g. --pragma cache_size=-65536 (repeatable). */
    pragma: { type: 'string', multiple: true, default: [] },
    /** Keep the database at this path (default: a temp file, deleted). */
    db: { type: 'string' },
  },
});
const LINKS = Number(values.links);
const LEASES = Number(values.leases);
const HOSTS = Number(values.hosts);
const BATCH = Number(values.batch);
// Drawing LINKS times uniformly from 0.3 × LINKS distinct URLs leaves ~71% duplicates.
const DISTINCT = Math.round(LINKS * 0.3);

const urlOf = (i: number) => `https://host${i % HOSTS}.example.org/section/${(i * 2654435761) % 9973}/page-${i}.html`;
const hostOf = (i: number) => `host${i % HOSTS}.example.org`;

function candidates(rand: () => number, n: number): Candidate[] {
  const out: Candidate[] = [];
  for (let k = 0; k < n; k++) {
    const i = Math.floor(rand() * DISTINCT);
    out.push({ url: urlOf(i), host: hostOf(i), depth: 2, priority: rand(), viaUrl: 'https://host0.example.org/', kind: 'page' });
  }
  return out;
}

const cfg: CrawlFrontierConfig = {
  maxPages: 100_000_000,
  maxPagesPerHost: 100_000_000,
  politeness: { enabled: true, minDelayMs: 1000, maxDelayMs: 30_000, delayFactor: 2 },
};
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);

function openDb(file: string): Database.Database {
  const db = openSqlite(file);
  for (const p of values.pragma) db.pragma(p);
  return db;
}

const dir = mkdtempSync(join(tmpdir(), 'tidemark-frontier-bench-'));
const path = values.db ?? join(dir, 'frontier.db');
const results: Record<string, number | string> = { links: LINKS, leases: LEASES, hosts: HOSTS, batch: BATCH, pragmas: values.pragma.join(' ') };
try {
  const clock = new SimulatedClock(0);
  let f = new SqliteFrontier(openDb(path), { clock, registry: new PolitenessRegistry() }, true);
  f.openCrawl(1, cfg);

  // 1. Link-adds, as a crawl makes them: one transaction per page of BATCH links.
  const rand = mulberry32(42);
  let added = 0;
  let dups = 0;
  let t = performance.now();
  for (let done = 0; done < LINKS; done += BATCH) {
    const r = f.add(1, candidates(rand, Math.min(BATCH, LINKS - done)));
    added += r.added;
    dups += r.duplicates;
  }
  let ms = performance.now() - t;
  Object.assign(results, { added, duplicateShare: (dups / LINKS).toFixed(3), addMs: Math.round(ms), linkAddsPerSec: rate(LINKS, ms) });

  // 2. The same with the AVG update function: every duplicate of a queued URL is rescored.
  const avgLinks = Math.min(LINKS, 200_000);
  t = performance.now();
  for (let done = 0; done < avgLinks; done += BATCH) f.add(1, candidates(rand, BATCH), { update: 'AVG' });
  ms = performance.now() - t;
  results.linkAddsPerSecAvg = rate(avgLinks, ms);

  // 3. Lease + complete with politeness on, on simulated time (16 fetches at once, 200 ms each).
  t = performance.now();
  let leased = 0;
  while (leased < LEASES) {
    const now = clock.now();
    const leases = f.nextMany(now, 16);
    for (const l of leases) f.complete(l, { status: 200, startedAt: now, durationMs: 200 });
    leased += leases.length;
    const wake = f.nextWakeAt();
    if (leases.length === 0 && wake === null) break; // the queue ran out before --leases (few --links)
    await clock.advanceTo(Math.max(now + 200, wake ?? now + 200));
  }
  ms = performance.now() - t;
  Object.assign(results, { leaseMs: Math.round(ms), leaseCompletePerSec: rate(leased, ms), simulatedMinutes: (clock.now() / 60_000).toFixed(1) });

  // 4. Resume: reopen the file and load the crawl.
  f.close();
  t = performance.now();
  f = new SqliteFrontier(openDb(path), { clock, registry: new PolitenessRegistry() }, true);
  f.openCrawl(1, cfg);
  results.resumeMs = Math.round(performance.now() - t);
  const c = f.counters(1);
  Object.assign(results, { queuedAfter: c.queued, doneAfter: c.done });
  f.close();
  results.dbMB = (statSync(path).size / 1e6).toFixed(0);
  results.peakRss = mb(process.resourceUsage().maxRSS);

  if (values['compare-seen']) Object.assign(results, compareSeen(dir));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(results, null, 2));

/** Seen-set key: a 64-bit URL hash as key vs a unique index on the URL text (same workload). */
function compareSeen(where: string): Record<string, number> {
  const out: Record<string, number> = {};
  const ddl = {
    hash: 'CREATE TABLE t (crawl_id INTEGER, url_hash INTEGER, url TEXT, PRIMARY KEY (crawl_id, url_hash)) WITHOUT ROWID',
    url: 'CREATE TABLE t (id INTEGER PRIMARY KEY, crawl_id INTEGER, url TEXT); CREATE UNIQUE INDEX t_url ON t (crawl_id, url)',
  };
  for (const kind of ['hash', 'url'] as const) {
    const file = join(where, `seen-${kind}.db`);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(ddl[kind]);
    const ins = kind === 'hash'
      ? db.prepare('INSERT INTO t VALUES (1, ?, ?) ON CONFLICT DO NOTHING')
      : db.prepare('INSERT INTO t (crawl_id, url) VALUES (1, ?) ON CONFLICT DO NOTHING');
    const page = db.transaction((urls: string[]) => {
      for (const u of urls) (kind === 'hash' ? ins.run(urlHash(u), u) : ins.run(u));
    });
    const r = mulberry32(7);
    const start = performance.now();
    for (let done = 0; done < LINKS; done += BATCH) page(Array.from({ length: BATCH }, () => urlOf(Math.floor(r() * DISTINCT))));
    out[`seen_${kind}_insertsPerSec`] = rate(LINKS, performance.now() - start);
    db.close();
    out[`seen_${kind}_MB`] = Math.round(statSync(file).size / 1e6); // close() checkpointed the WAL
  }
  return out;
}
