import { SqliteFrontier, type Lease } from '../../worker/frontier';
import { SimulatedClock } from '../../worker/politeness';
import { openSqlite } from '../../worker/store/sqlite';
import type { UpdateFunctionName } from '../../worker/analyze';

/**
 * What the simulation needs from a frontier. The real SQLite frontier (worker/frontier) sits
 * behind it on an in-memory database, politeness off (the simulated web has no clock to respect).
 */
export interface SimFrontier {
  add(candidates: { url: string; host: string; depth: number; priority: number; viaUrl?: string }[], update: UpdateFunctionName): void;
  /** The next URLs to fetch: one, or the best host's top `bl` when bl > 1. */
  take(bl: number): { url: string; depth: number; token: Lease }[];
  complete(lease: Lease): void;
  close(): void;
}

const CRAWL_ID = 1;

/** The real frontier on a private in-memory SQLite database. */
export function sqliteSimFrontier(): SimFrontier {
  const db = openSqlite(':memory:');
  const clock = new SimulatedClock(1_000_000);
  const f = new SqliteFrontier(db, { clock }, true);
  f.openCrawl(CRAWL_ID, {
    maxPages: 100_000_000,
    maxPagesPerHost: 100_000_000,
    politeness: { enabled: false, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 },
    // As the engine sets it for focused crawls: hosts hold their queues and scores are written behind.
    rescoring: true,
  });
  return {
    add(candidates, update) {
      f.add(CRAWL_ID, candidates.map((c) => ({ ...c, kind: 'page' })), { update });
    },
    take(bl) {
      const leases = bl > 1 ? f.nextBatch(clock.now(), bl) : [f.next(clock.now())].filter((l): l is Lease => l !== null);
      return leases.map((l) => ({ url: l.url, depth: l.depth, token: l }));
    },
    complete(lease) {
      f.complete(lease, { status: 200, durationMs: 0 });
    },
    close() {
      f.close();
    },
  };
}
