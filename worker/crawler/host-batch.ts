import type { Frontier, Lease } from '../frontier';
import { waitUntil } from './wait-until';

/** What fetching one host's batch needs from the engine. */
export interface HostBatchDeps {
  /** One URL through the pipeline and its commit; true when the URL was given back (its IP was busy). */
  process(lease: Lease): Promise<boolean>;
  /** Earliest start of the host's next request (the frontier's politeness clock); ignored when politeness is off. */
  readyAt(lease: Lease): number;
  polite: boolean;
  halted(): boolean;
  release(lease: Lease): void;
}

/**
 * Takes up to `slots` host batches of up to `bl` URLs each (ARCOMEM batch prioritisation: the top
 * bl URLs of the chosen host's queue at once), within `budget` URLs in all.
 */
export function takeHostBatches(frontier: Frontier, now: number, slots: number, bl: number, budget: number): Lease[][] {
  const out: Lease[][] = [];
  while (out.length < slots && budget > 0) {
    const leases = frontier.nextBatch(now, Math.min(bl, budget));
    if (!leases.length) break;
    budget -= leases.length;
    out.push(leases);
  }
  return out;
}

/**
 * Fetches one host's batch. Politeness allows one request in flight per host (per IP), and the
 * frontier lets the host hold its key until the whole batch is back, so the URLs are fetched one
 * after another, each after the host's politeness delay following the previous one, while other
 * slots serve other hosts. (Fetching them in parallel would break the one-in-flight rule; leasing
 * one at a time would let the scheduler move to another host between them, which is no batch.)
 * On pause/stop, or when the first URL had to be given back because its IP was busy (the host no
 * longer holds the key), the URLs not started yet go back to the queue.
 */
export async function runHostBatch(leases: readonly Lease[], deps: HostBatchDeps): Promise<void> {
  let i = 0;
  try {
    for (; i < leases.length; i++) {
      const lease = leases[i]!;
      if (i > 0 && deps.polite) await waitUntil(() => deps.readyAt(lease), deps.halted);
      if (deps.halted()) break;
      if (await deps.process(lease)) {
        i += 1;
        break;
      }
    }
  } finally {
    for (; i < leases.length; i++) deps.release(leases[i]!);
  }
}
