import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteFrontier, type Candidate, type CrawlFrontierConfig, type Lease } from '../../../worker/frontier';
import { PolitenessRegistry, SimulatedClock } from '../../../worker/politeness';
import { openSqlite } from '../../../worker/store/sqlite';
import type Database from 'better-sqlite3';

/** A frontier on a real SQLite file in a fresh temp dir, on simulated time. */
export function tempFrontier(cfg: Partial<CrawlFrontierConfig> = {}, crawlId = 1) {
  const dir = mkdtempSync(join(tmpdir(), 'tidemark-frontier-'));
  const path = join(dir, 'crawl.db');
  const clock = new SimulatedClock(1_000_000);
  const config = crawlConfig(cfg);
  const handles: Database.Database[] = [];
  /** A frontier on its own handle; `handles` lets a test close the file under it (a crash). */
  const open = (opts: { onHostsWaiting?(readyAt?: number): void } = {}) => {
    const db = openSqlite(path);
    handles.push(db);
    const f = new SqliteFrontier(db, { clock, registry: new PolitenessRegistry(), ...opts });
    f.openCrawl(crawlId, config);
    return f;
  };
  const cleanup = () => {
    for (const db of handles) if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, path, clock, config, open, handles, cleanup };
}

/** Generous budgets; politeness off unless asked (ordering tests lease one host repeatedly). */
export function crawlConfig(cfg: Partial<CrawlFrontierConfig> = {}): CrawlFrontierConfig {
  return {
    maxPages: 1_000_000,
    maxPagesPerHost: 1_000_000,
    politeness: { enabled: false, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 },
    ...cfg,
  };
}

export function cand(url: string, priority = 0.5, extra: Partial<Candidate> = {}): Candidate {
  return { url, host: new URL(url).host, depth: 1, priority, kind: 'page', ...extra };
}

/** Leases everything that can be leased now, completing each, and returns the URLs in order. */
export function drain(f: SqliteFrontier, now: number): string[] {
  const out: string[] = [];
  for (let l: Lease | null; (l = f.next(now)); ) {
    out.push(l.url);
    f.complete(l, { status: 200, durationMs: 0 });
  }
  return out;
}
