import { setTimeout as sleep } from 'node:timers/promises';

/** Longest nap, so a pause or stop does not wait out a long delay (a Crawl-delay: up to maxDelayMs, an hour). */
const MAX_NAP_MS = 250;

/**
 * Waits until `readyAt()` (read again after each nap: another request may move it), unless
 * `halted()` first. True when the time came, false when halted.
 */
export async function waitUntil(readyAt: () => number, halted: () => boolean): Promise<boolean> {
  for (let wait = readyAt() - Date.now(); wait > 0; wait = readyAt() - Date.now()) {
    if (halted()) return false;
    await sleep(Math.min(wait, MAX_NAP_MS));
  }
  return true;
}
