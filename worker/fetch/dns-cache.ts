import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { withTimeout } from './timeout';

/** Resolves one host name to one address (the first the system resolver gives). */
export type LookupFn = (host: string) => Promise<string>;

/** A host's address, or why there is none. */
export type ResolveResult = { ip: string } | { error: string };

export interface DnsCacheOptions {
  /** Defaults to the system resolver (getaddrinfo, so /etc/hosts counts). */
  lookup?: LookupFn;
  /** How long an answer is reused. getaddrinfo gives no TTL, so one fixed TTL for all. */
  ttlMs?: number;
  /** How long a failure is remembered before the next attempt. */
  negativeTtlMs?: number;
  timeoutMs?: number;
  now?: () => number;
}

/** A small DNS cache: one lookup per host per TTL, concurrent callers share it. */
export interface DnsCache {
  resolveHost(host: string): Promise<ResolveResult>;
  /** Forgets every answer (tests, or after a network change). */
  clear(): void;
}

/**
 * The name the system resolver is asked for `host`: `localhost` for a name under it
 * (`bücher.localhost`, `app.localhost`), which RFC 6761 §6.3 reserves for the loopback and which
 * browsers (Chromium, Firefox) and curl resolve so, while getaddrinfo, without a resolver that knows
 * the rule, answers "not found". Other names as they are. Pure.
 */
export function systemLookupName(host: string): string {
  return /\.localhost\.?$/i.test(host) ? 'localhost' : host;
}

const systemLookup: LookupFn = async (host) => (await dnsLookup(systemLookupName(host))).address;

/** Host names as URL.hostname writes them: IPv6 literals come in brackets. */
function bare(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host.toLowerCase();
}

/**
 * Creates a DNS cache. The crawler resolves a host before fetching so politeness clocks can be
 * kept per IP, and the fetcher connects to exactly that IP, so WARC-IP-Address is the address
 * the bytes came from.
 */
export function createDnsCache(opts: DnsCacheOptions = {}): DnsCache {
  const lookup = opts.lookup ?? systemLookup;
  const ttlMs = opts.ttlMs ?? 5 * 60_000;
  const negativeTtlMs = opts.negativeTtlMs ?? 30_000;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  // The monotonic clock: on the wall clock, one set back an hour kept every answer, a failure too, an hour longer.
  const now = opts.now ?? (() => performance.now());
  const answers = new Map<string, { result: ResolveResult; expires: number }>();
  const pending = new Map<string, Promise<ResolveResult>>();

  async function resolveFresh(host: string): Promise<ResolveResult> {
    let result: ResolveResult;
    try {
      result = { ip: await withTimeout(timeoutMs, 'dns', () => lookup(host)) };
    } catch (err) {
      result = { error: err instanceof Error ? err.message : String(err) };
    }
    answers.set(host, { result, expires: now() + ('ip' in result ? ttlMs : negativeTtlMs) });
    return result;
  }

  return {
    async resolveHost(rawHost) {
      const host = bare(rawHost);
      if (isIP(host)) return { ip: host };
      const cached = answers.get(host);
      if (cached && cached.expires > now()) return cached.result;
      let inFlight = pending.get(host);
      if (!inFlight) {
        inFlight = resolveFresh(host).finally(() => pending.delete(host));
        pending.set(host, inFlight);
      }
      return inFlight;
    },
    clear() {
      answers.clear();
    },
  };
}

/**
 * The worker process's shared cache. DNS answers are facts about the network, not about one
 * crawl, so every crawl in the worker shares them; tests make their own with createDnsCache.
 */
export const sharedDnsCache: DnsCache = createDnsCache();

/** Resolves a host through the shared cache. */
export function resolveHost(host: string): Promise<ResolveResult> {
  return sharedDnsCache.resolveHost(host);
}
