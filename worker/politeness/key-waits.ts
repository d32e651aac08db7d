/**
 * Requests that wait for a politeness key while holding another one (a robots.txt redirect to a
 * host on another IP, fetched during the turn of the host whose robots.txt it is) as pure data, so
 * the deadlock check is unit-tested without clocks or sockets.
 */

/** A request holding the key `held` that waits for the key `wanted`. */
export interface KeyWait {
  held: string;
  wanted: string;
}

/**
 * Would `wait` close a cycle of waits — its wanted key held by a request that waits (perhaps through
 * others) for the key `wait` holds? Then none of them could ever go on. A wait for the key it holds
 * is such a cycle too.
 */
export function closesWaitCycle(waits: Iterable<KeyWait>, wait: KeyWait): boolean {
  const byHeld = new Map<string, string[]>();
  for (const w of waits) byHeld.set(w.held, [...(byHeld.get(w.held) ?? []), w.wanted]);
  const seen = new Set<string>();
  const next = [wait.wanted];
  for (let key = next.pop(); key !== undefined; key = next.pop()) {
    if (key === wait.held) return true;
    if (seen.has(key)) continue;
    seen.add(key);
    next.push(...(byHeld.get(key) ?? []));
  }
  return false;
}
