/**
 * Restart delay for a crashed worker: doubles with each crash in a row (1 s, 2 s, 4 s … capped at
 * 30 s) and resets once the worker stayed up long enough to count as healthy.
 */
export function restartDelayMs(consecutiveCrashes: number, baseMs = 1000, capMs = 30_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, consecutiveCrashes - 1));
}

export const HEALTHY_UPTIME_MS = 60_000;
