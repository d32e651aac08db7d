// Settling posted URLs that wait when a crawl ends: how long endCrawl (a stop: each waiting URL
// excluded `crawl-ended`) and the engine's finish with its budget spent (settleScoredIntake,
// `max-pages`) hold the worker's thread and SQLite's write lock, over a crawl that already knows
// many URLs. Each run is on a fresh database file. `digest` hashes every resulting frontier row
// (but its discovery time) and the stored counters, so two versions of the code can be compared.
// `--update AVG` (or LAST, MAX, SUM) makes it a focused crawl that rescores its queued URLs;
// `--all-queued` posts only new scores (and a few blacklistings) of URLs the crawl has queued.
// Run: node --import tsx bench/settle-intake.ts [--waiting 100000] [--known 100000] [--hosts 1000] [--runs 3] [--update AVG] [--all-queued]
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type Database from 'better-sqlite3';
import { crawlFrontierConfig, crawlUpdateFunction } from '../worker/crawler/frontier-config';
import { SqliteFrontier } from '../worker/frontier';
import { MAX_SCORED_URLS, queueScoredUrls, settleScoredIntake, type ScoredUrl } from '../worker/frontier/scored-intake';
import { parseIcd, type Icd } from '../worker/icd/schema';
import { endCrawl } from '../worker/process/crawl-end';
import { openSqlite } from '../worker/store/sqlite';

const { values } = parseArgs({
  options: {
    waiting: { type: 'string', default: '100000' },
    known: { type: 'string', default: '100000' },
    hosts: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '3' },
    update: { type: 'string' },
    'all-queued': { type: 'boolean', default: false },
  },
});
const WAITING = Number(values.waiting);
const KNOWN = Number(values.known);
const HOSTS = Number(values.hosts);
const RUNS = Number(values.runs);
const CRAWL = 1;

const urlOf = (i: number) => `https://host${i % HOSTS}.example.org/notices/${i}`;
const focus = values.update ? { enabled: true, updateFunction: values.update } : {};
const icd: Icd = parseIcd({ name: 'settle', seeds: ['https://host0.example.org/'], scope: { maxPages: 10_000_000 }, focus });

/**
 * A crawl that knows KNOWN URLs (a fifth of them still queued, the others fetched, failed or
 * excluded), and WAITING posted URLs: most new to it, one in ten it knows, one in twenty new ones
 * posted twice, a few blacklisted.
 */
function crawlWithWaitingUrls(db: Database.Database): void {
  db.exec('CREATE TABLE Crawl (id INTEGER PRIMARY KEY, definition TEXT NOT NULL, stats TEXT NOT NULL, status TEXT, finishedAt TEXT, error TEXT)');
  db.prepare("INSERT INTO Crawl (id, definition, stats, status) VALUES (?, ?, '{}', 'stopping')").run(CRAWL, JSON.stringify(icd));
  const f = new SqliteFrontier(db);
  f.openCrawl(CRAWL, crawlFrontierConfig(icd));
  for (let i = 0; i < KNOWN; i += 1_000) {
    const n = Math.min(1_000, KNOWN - i);
    f.add(CRAWL, Array.from({ length: n }, (_, k) => ({ url: urlOf(i + k), host: `host${(i + k) % HOSTS}.example.org`, depth: 1, priority: 0.5, kind: 'page' })));
  }
  f.close();
  if (values['all-queued']) {
    // The worst case for the settling: every post is a new score (or a blacklisting) of a queued URL.
    const posted = Array.from({ length: WAITING }, (_, k) => ({ url: urlOf(k % KNOWN), score: (k % 100) / 100, blacklist: k % 50 === 7 }));
    for (let k = 0; k < posted.length; k += MAX_SCORED_URLS) queueScoredUrls(db, CRAWL, posted.slice(k, k + MAX_SCORED_URLS));
    return;
  }
  db.prepare("UPDATE frontier_url SET state = CASE seq % 5 WHEN 1 THEN 2 WHEN 2 THEN 2 WHEN 3 THEN 3 ELSE 4 END, reason = CASE seq % 5 WHEN 3 THEN 'http-5xx' WHEN 4 THEN 'robots' END WHERE crawl_id = ? AND seq % 5 <> 0").run(CRAWL);
  const posted: ScoredUrl[] = [];
  // A tenth are posts of URLs the crawl knows, each twice, in every state (seq i + 1 decides which).
  const knownPosted = Math.max(Math.floor(KNOWN / 20), 1);
  for (let k = 0; k < WAITING; k++) {
    const i = k % 10 === 0 ? ((k / 10) * 3) % knownPosted : k % 20 === 1 ? KNOWN + k - 2 : KNOWN + k;
    posted.push({ url: urlOf(i), score: (k % 100) / 100, blacklist: k % 50 === 7 || k % 70 === 0 });
  }
  for (let k = 0; k < posted.length; k += MAX_SCORED_URLS) queueScoredUrls(db, CRAWL, posted.slice(k, k + MAX_SCORED_URLS));
}

/** Every frontier row of the crawl (but its discovery time) and its stored counters, hashed. */
function digest(db: Database.Database): string {
  const h = createHash('sha1');
  const rows = db.prepare('SELECT seq, url_hash, url, host, depth, kind, via_url, state, reason, precedence, score_raw, score_count, score_sum, breakdown FROM frontier_url WHERE crawl_id = ? ORDER BY seq').raw(true);
  for (const r of rows.iterate(CRAWL)) h.update(JSON.stringify(r, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  // The counters' keys sorted: a JSON object's key order is not part of what it says.
  const stats = JSON.parse(db.prepare('SELECT stats FROM Crawl WHERE id = ?').pluck().get(CRAWL) as string) as Record<string, unknown>;
  h.update(JSON.stringify(stats, (_, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v)));
  return h.digest('hex').slice(0, 12);
}

/** Each settling: prepares it on a database, and returns what is timed. */
const settlings: Record<string, (db: Database.Database) => () => void> = {
  /** The worker's stop: the crawl's final status and its waiting URLs, one transaction. */
  stop: (db) => () => endCrawl(db, CRAWL, { status: 'stopped' }),
  /** The engine's finish with the budget spent (its frontier open already; only the settling timed). */
  finish(db) {
    const f = new SqliteFrontier(db);
    f.openCrawl(CRAWL, crawlFrontierConfig(icd));
    return () => {
      db.transaction(() => settleScoredIntake(db, f, CRAWL, crawlUpdateFunction(icd), 'max-pages')).immediate();
      const c = f.counters(CRAWL);
      db.prepare('UPDATE Crawl SET stats = ? WHERE id = ?').run(JSON.stringify({ excluded: c.excluded, excludedByReason: c.excludedByReason, queued: c.queued }), CRAWL);
      f.close();
    };
  },
};

const dir = mkdtempSync(join(tmpdir(), 'tidemark-settle-bench-'));
try {
  for (const [name, settle] of Object.entries(settlings)) {
    const times: number[] = [];
    let sum = '';
    for (let run = 0; run < RUNS; run++) {
      const db = openSqlite(join(dir, `${name}-${run}.db`));
      crawlWithWaitingUrls(db);
      const timed = settle(db);
      const t = performance.now();
      timed();
      times.push(Math.round(performance.now() - t));
      const left = db.prepare('SELECT COUNT(*) FROM frontier_intake').pluck().get() as number;
      if (left !== 0) throw new Error(`${left} URLs still wait`);
      sum = digest(db);
      db.close();
    }
    console.log(JSON.stringify({ settling: name, update: crawlUpdateFunction(icd), allQueued: values['all-queued'], waiting: WAITING, known: KNOWN, hosts: HOSTS, ms: times, digest: sum }));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
