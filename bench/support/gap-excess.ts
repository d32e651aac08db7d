/**
 * Where a polite crawl's time above the politeness delay goes, read from the server's log: each
 * host's requests in order (robots.txt first), the gap between two of them less the delay, averaged
 * over the hosts at each position. The span the rate is measured on is the slowest host's first
 * request's lateness plus the sum of its gaps, so these are what the rate loses against the ideal.
 */
export interface GapExcess {
  /** Mean excess of gap k (request k → k+1) over the delay, in ms: k = 0 is robots.txt → first page. */
  byPosition: number[];
  /** Mean over hosts of the excess of all their gaps, in ms. */
  perHost: number;
  /** The last host's first request after the crawl's first request, in ms. */
  startSpread: number;
}

/** `starts`: each host's request start times (ms), in any order; hosts without a request are left out. */
export function gapExcess(starts: readonly (readonly number[])[], delayMs: number): GapExcess {
  const hosts = starts.filter((s) => s.length > 0).map((s) => [...s].sort((a, b) => a - b));
  const sums: number[] = [];
  const counts: number[] = [];
  let all = 0;
  for (const s of hosts) {
    for (let k = 0; k + 1 < s.length; k++) {
      const excess = s[k + 1] - s[k] - delayMs;
      sums[k] = (sums[k] ?? 0) + excess;
      counts[k] = (counts[k] ?? 0) + 1;
      all += excess;
    }
  }
  const firsts = hosts.map((s) => s[0]);
  return {
    byPosition: sums.map((sum, k) => sum / counts[k]),
    perHost: hosts.length ? all / hosts.length : 0,
    startSpread: firsts.length ? Math.max(...firsts) - Math.min(...firsts) : 0,
  };
}
