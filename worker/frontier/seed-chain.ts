/**
 * A seed's chain through its redirects, as the seeds report shows it (seed-report.ts reads it from
 * the crawl's database). Pure, with no database: the cockpit's pages use it too.
 */

/** One URL of a seed's chain, as the frontier and the crawl log have it. */
export interface SeedHop {
  url: string;
  /** Its frontier state (queued, in-flight, done, failed, excluded, retrying); `unseen` when the crawl has not seen it. */
  state: string;
  /** HTTP status of its last fetch; null: none answered. */
  status: number | null;
  /** Why it failed or was excluded (the crawl log's outcome); null otherwise. */
  reason: string | null;
  /** The message of its latest crawl-log entry; null when none has one. */
  message: string | null;
}

/** Why a chain stopped at a redirect rather than at a page: a URL it came through already, more than MAX_SEED_REDIRECTS, or a redirect without a usable Location. */
export type ChainCut = 'loop' | 'too-many-redirects' | 'no-location';

export interface SeedReportRow {
  /** The seed as the ICD gives it. */
  seed: string;
  /** The seed (canonical), then each URL it redirects to, in order. */
  hops: SeedHop[];
  cut: ChainCut | null;
}

/** Redirects followed at most from a seed: as many as a polite browser would. */
export const MAX_SEED_REDIRECTS = 10;

/** A fetched 3xx other than 304: a Not Modified answers a conditional request and points nowhere (RFC 9110 §15.4.5). */
export const isRedirect = (hop: Pick<SeedHop, 'state' | 'status'>): boolean => hop.state === 'done' && hop.status !== null && hop.status >= 300 && hop.status < 400 && hop.status !== 304;

/**
 * Follows `first` (a seed's canonical URL) through its redirects: `hop` says what the crawl holds of
 * a URL, `location` where a fetched redirect pointed (canonical; null: no usable Location).
 */
export async function followRedirects(
  first: string,
  io: { hop(url: string): Omit<SeedHop, 'message'>; location(url: string): Promise<string | null> },
): Promise<{ hops: Omit<SeedHop, 'message'>[]; cut: ChainCut | null }> {
  const hops = [io.hop(first)];
  for (;;) {
    const last = hops.at(-1)!;
    if (!isRedirect(last)) return { hops, cut: null };
    const target = await io.location(last.url);
    if (target === null) return { hops, cut: 'no-location' };
    if (hops.some((h) => h.url === target)) return { hops, cut: 'loop' };
    if (hops.length > MAX_SEED_REDIRECTS) return { hops, cut: 'too-many-redirects' };
    hops.push(io.hop(target));
  }
}
