import { setTimeout as sleep } from 'node:timers/promises';
import type { FetchOutcome } from '../fetch';
import type { Frontier } from '../frontier';
import type { KeyHolder, KeyTiming, KeyTurnLine } from '../politeness';

/** How often a request waiting in line for a key looks whether a pause or stop came (the key itself wakes it). */
const HALT_CHECK_MS = 250;

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
 * leases, as soon as no request of any crawl of the worker holds it: while one does, it waits in
 * line for the key (Frontier.waitKeyTurn), and the request freeing it hands it to the first in line,
 * so such requests of several crawls take their turns in the order they asked. The host's IP is
 * recorded only when the key is free, so a lease of another crawl holding the key under the host's
 * name keeps it until its own DNS stage moves it. The caller then waits out the key's delay holding
 * it, and frees it with frontier.releaseKey.
 */
export async function takeHostKey(frontier: Frontier, holder: KeyHolder, ip: string, o: KeyTurnOptions): Promise<KeyTurn> {
  const endWait = o.holding === undefined ? () => undefined : frontier.waitForKey(o.holding, ip);
  if (!endWait) return 'deadlock';
  try {
    for (;;) {
      const mayTake = () => !frontier.hostBusy(holder.host) && !frontier.keyOwedToLeases(holder.host);
      if (mayTake()) {
        frontier.setHostKey(holder.host, ip);
        if (frontier.holdKey(holder)) return 'held';
      }
      if (o.halted()) return 'halted';
      const line = frontier.waitKeyTurn(holder);
      const handed = await turnOrHalt(line, o.halted, mayTake);
      if (handed === 'halted') return 'halted';
      if (!handed) continue;
      // Handed the key under the host's name (a lease held it before its DNS stage): moved to the IP, if free.
      if (frontier.hostKey(holder.host) !== ip) frontier.setHostKey(holder.host, ip);
      if (frontier.holdsKey(holder)) return 'held';
    }
  } finally {
    endWait();
  }
}

/**
 * Waits for the turn in line, looking every HALT_CHECK_MS whether a pause or stop came, or whether
 * the key may be taken though no one handed it over (the leases it was owed to let their turn
 * pass): it leaves the line then, and says so ('halted', or false: look again).
 */
async function turnOrHalt(line: KeyTurnLine, halted: () => boolean, mayTake: () => boolean): Promise<boolean | 'halted'> {
  for (;;) {
    const nap = new AbortController();
    const napped = sleep(HALT_CHECK_MS, 'nap' as const, { signal: nap.signal }).catch(() => 'cut' as const);
    const woke = await Promise.race([line.turn, napped]);
    nap.abort();
    if (typeof woke === 'boolean') return woke;
    if (halted() || mayTake()) {
      line.leave();
      return halted() ? 'halted' : false;
    }
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
