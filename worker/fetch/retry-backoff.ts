/** How retries back off: exponential from `baseMs`, capped at `maxMs`, with jitter. */
export interface BackoffConfig {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffConfig = { baseMs: 500, maxMs: 30_000 };

/**
 * Wait before retry number `attempt` (1 = first retry): base × 2^(attempt-1), capped, then
 * "equal jitter" (half fixed, half random) so retries of many URLs do not land together but a
 * retry never comes sooner than half the nominal delay. A server's `Retry-After` (seconds or an
 * HTTP date) wins when it asks for longer, up to the cap.
 */
export function retryDelayMs(attempt: number, cfg: BackoffConfig, random: () => number, retryAfter?: string, nowMs = Date.now()): number {
  const nominal = Math.min(cfg.maxMs, cfg.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = nominal / 2 + (nominal / 2) * Math.min(1, Math.max(0, random()));
  const asked = parseRetryAfterMs(retryAfter, nowMs);
  return Math.round(asked === null ? jittered : Math.min(cfg.maxMs, Math.max(jittered, asked)));
}

/** `Retry-After` in ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
