import { nextAllowedAt, type DelayConfig, type KeyTiming } from './politeness-delay';

/**
 * The politeness clocks of one worker, shared by every crawl it runs. A clock belongs to a
 * politeness key: the host's IP address once the crawler resolved it, the host name until then,
 * so several host names on one IP share one clock. At most one request is in flight per key.
 *
 * The class only keeps state; the delay arithmetic is `nextAllowedAt` (pure).
 */
export class PolitenessRegistry {
  private readonly hostKeys = new Map<string, string>();
  private readonly robotsDelays = new Map<string, number>();
  private readonly timings = new Map<string, KeyTiming>();
  /** key → the host whose request holds it. */
  private readonly holders = new Map<string, string>();
  /** host → the key its request holds (a host may change key while it holds one). */
  private readonly held = new Map<string, string>();

  /** The politeness key of a host: its IP once known, else the host name itself. */
  keyOf(host: string): string {
    return this.hostKeys.get(host) ?? host;
  }

  /**
   * Records the host's IP (or any shared key). If the host holds its old key, the hold moves to
   * the new one; returns false when the new key is already held by another host — the caller
   * should then give its lease back (the request must not start). With `readyCheck`, also false
   * when the new key's delay has not passed yet (the host was leased under its name's clock, and
   * another name on that IP was fetched a moment ago).
   */
  setHostKey(host: string, key: string, readyCheck?: { now: number; cfg: DelayConfig }): boolean {
    this.hostKeys.set(host, key);
    const old = this.held.get(host);
    if (old === undefined || old === key) return true;
    this.holders.delete(old);
    this.held.delete(host);
    if (this.holders.has(key)) return false;
    if (readyCheck && this.readyAt(host, readyCheck.cfg) > readyCheck.now) return false;
    this.holders.set(key, host);
    this.held.set(host, key);
    return true;
  }

  /** Robots.txt crawl-delay of a host in ms (null: none). */
  setRobotsDelay(host: string, ms: number | null): void {
    if (ms === null) this.robotsDelays.delete(host);
    else this.robotsDelays.set(host, ms);
  }

  robotsDelayMs(host: string): number | null {
    return this.robotsDelays.get(host) ?? null;
  }

  /** Last request timing of a key (null if the key was never used). */
  timing(key: string): KeyTiming | null {
    return this.timings.get(key) ?? null;
  }

  /** Restores a key's timing (on resume from persisted state). Keeps the later of the two. */
  restoreTiming(key: string, timing: KeyTiming): void {
    const cur = this.timings.get(key);
    if (!cur || cur.lastStartAt + cur.lastDurationMs < timing.lastStartAt + timing.lastDurationMs) this.timings.set(key, timing);
  }

  /** True while a request under this key is in flight. */
  isBusy(key: string): boolean {
    return this.holders.has(key);
  }

  /** The host's key, if it is held by a request of this host. */
  heldKey(host: string): string | undefined {
    return this.held.get(host);
  }

  /** Earliest time a request to this host may start under `cfg` (ignores whether the key is busy). */
  readyAt(host: string, cfg: DelayConfig): number {
    return nextAllowedAt(this.timings.get(this.keyOf(host)), cfg, this.robotsDelays.get(host));
  }

  /** Takes the host's key if it is free and its delay has passed; false otherwise. */
  tryAcquire(host: string, now: number, cfg: DelayConfig): boolean {
    const key = this.keyOf(host);
    if (this.holders.has(key) || this.held.has(host)) return false;
    if (this.readyAt(host, cfg) > now) return false;
    this.holders.set(key, host);
    this.held.set(host, key);
    return true;
  }

  /** The host's request finished: record when it started and how long it took, free the key. */
  finish(host: string, timing: KeyTiming): string | undefined {
    const key = this.held.get(host);
    if (key === undefined) return undefined;
    this.timings.set(key, { lastStartAt: timing.lastStartAt, lastDurationMs: Math.max(0, timing.lastDurationMs) });
    this.holders.delete(key);
    this.held.delete(host);
    return key;
  }

  /** A request of a batch finished while the host keeps its key: record its timing only. */
  record(host: string, timing: KeyTiming): string | undefined {
    const key = this.held.get(host);
    if (key !== undefined) this.timings.set(key, { lastStartAt: timing.lastStartAt, lastDurationMs: Math.max(0, timing.lastDurationMs) });
    return key;
  }

  /** The host's request never started: free the key without touching its clock. */
  abandon(host: string): string | undefined {
    const key = this.held.get(host);
    if (key === undefined) return undefined;
    this.holders.delete(key);
    this.held.delete(host);
    return key;
  }
}
