import { setTimeout as sleep } from 'node:timers/promises';
import type { FetchOutcome } from '../fetch';
import type { Frontier } from '../frontier';
import type { KeyHolder, KeyTiming } from '../politeness';

/**
 * How often a request waiting for a busy key looks again (it is not told when the key is freed):
 * well within a delay, so it takes the key before the leases waiting out that delay can.
 */
const BUSY_POLL_MS = 50;

/** How a wait for a host's key ended: the key is held, a pause or stop came first, or waiting would never end. */
export type KeyTurn = 'held' | 'halted' | 'deadlock';

export interface KeyTurnOptions {
  halted(): boolean;
  /**
   * The host whose key the caller holds while it waits (a robots.txt redirect to another IP, during
   * the turn of the host whose robots.txt it is). When the wanted key's holder waits, perhaps
   * through others, for that one, the answer is 'deadlock' at once instead of waiting.
   */
  holding?: string;
}

/**
 * Takes the politeness key of `holder.host` (its IP, `ip`) for a request outside the frontier's
 * leases, as soon as no request of any crawl of the worker holds it. The host's IP is recorded only
 * then, so a lease of another crawl holding the key under the host's name keeps it until its own
 * DNS stage moves it. The caller then waits out the key's delay holding it, and frees it with
 * frontier.releaseKey.
 */
export async function takeHostKey(frontier: Frontier, holder: KeyHolder, ip: string, o: KeyTurnOptions): Promise<KeyTurn> {
  const endWait = o.holding === undefined ? () => undefined : frontier.waitForKey(o.holding, ip);
  if (!endWait) return 'deadlock';
  try {
    for (;;) {
      if (!frontier.hostBusy(holder.host)) {
        frontier.setHostKey(holder.host, ip);
        if (frontier.holdKey(holder)) return 'held';
      }
      if (o.halted()) return 'halted';
      await sleep(BUSY_POLL_MS);
    }
  } finally {
    endWait();
  }
}

/** When a request started and how long it took, for the key's clock (its exchange's date when there is one). */
export function requestTiming(outcome: FetchOutcome): KeyTiming {
  const ex = outcome.ok ? outcome.exchange : outcome.partial;
  return { lastStartAt: ex?.date.getTime() ?? Date.now() - outcome.durationMs, lastDurationMs: outcome.durationMs };
}

/** The outcome of a request a pause or stop kept from starting. */
export function haltedOutcome(): FetchOutcome {
  return { ok: false, reason: 'interrupted', message: 'the crawl is pausing or stopping', durationMs: 0, retries: 0 };
}
