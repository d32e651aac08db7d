import { MAX_POLITENESS_DELAY_MS } from '../icd/schema';
import { closesWaitCycle } from './key-waits';
import { nextAllowedAt, timingAsOf, type DelayConfig, type KeyTiming } from './politeness-delay';

/**
 * Who holds a politeness key: one host of one crawl (the frontier's entry for it), or a request
 * made outside the frontier's leases. Holds are by identity, not by host name: two crawls of one
 * worker each have their own entry for a host, and only the one that took the key may free it.
 */
export interface KeyHolder {
  readonly host: string;
}

/**
 * A request's place in line for a busy key (waitTurn). `turn` resolves when the key is freed: true
 * when it was handed to this request (it holds it now), false when it should look again (its host
 * moved to another key meanwhile). `leave` takes it out of line (a pause); a key handed to it
 * meanwhile is given back, unused.
 */
export interface KeyTurnLine {
  readonly turn: Promise<boolean>;
  leave(): void;
}

interface KeyWaiter {
  holder: KeyHolder;
  resolve(handed: boolean): void;
}

/**
 * Told of every key that stops being held (a request ended, was given back, or moved to another
 * key); returns, when hosts of its crawl waited for that key, the earliest time one may take it.
 */
export type KeyFreedListener = (key: string) => number | null | void;

/**
 * Told of every host whose key or robots.txt Crawl-delay changed (any crawl of the worker resolved it
 * to another IP, or read its robots.txt again).
 */
export type HostChangedListener = (host: string) => void;

/** Below this many keys with a clock, finish() never looks for idle ones (idleKeysPruned). */
const MIN_KEYS_BEFORE_PRUNE = 1024;

/**
 * The politeness clocks of one worker, shared by every crawl it runs. A clock belongs to a
 * politeness key: the host's IP address once the crawler resolved it, the host name until then,
 * so several host names on one IP share one clock. At most one request is in flight per key,
 * whichever crawl makes it.
 *
 * Each frontier schedules its own crawl's hosts and parks those whose key is busy; a key freed by
 * another crawl's request reaches it through `onKeyFreed` — unless a request outside the leases
 * waits in line for that key (waitTurn): it is handed to the first of them instead.
 *
 * The class only keeps state; the delay arithmetic is `nextAllowedAt` (pure).
 */
export class PolitenessRegistry {
  private readonly hostKeys = new Map<string, string>();
  private readonly robotsDelays = new Map<string, number>();
  private readonly timings = new Map<string, KeyTiming>();
  /** key → the holder whose request holds it. */
  private readonly holders = new Map<string, KeyHolder>();
  /** holder → the key its request holds (a host may change key while it holds one). */
  private readonly held = new Map<KeyHolder, string>();
  private readonly listeners = new Set<KeyFreedListener>();
  /** Which listener hears the next freed key first: it turns at each one, so crawls sharing a key take turns. */
  private firstHeard = 0;
  private readonly hostListeners = new Set<HostChangedListener>();
  /** key → when the first lease that waited for it while it was held may take it, until one takes it (leaseDueAt). */
  private readonly leasesDue = new Map<string, number>();
  /** key → requests outside the frontiers' leases waiting for it, first come first (waitTurn). */
  private readonly lines = new Map<string, KeyWaiter[]>();
  /** Requests waiting for a key while holding their host's (its key is read at each check: it may move). */
  private readonly waits = new Set<{ holdingHost: string; wanted: string }>();
  /** How many keys with a clock make finish() look for idle ones again: twice as many as it left last time. */
  private pruneAtSize = MIN_KEYS_BEFORE_PRUNE;
  /** host → how many frontiers use its key and Crawl-delay (useHost), until they release it (releaseHosts). */
  private readonly hostUsers = new Map<string, number>();

  /**
   * Calls `listener` with every key that stops being held, until the returned function is called
   * (a frontier listens while it has a crawl open, so closed crawls leave nothing behind).
   */
  onKeyFreed(listener: KeyFreedListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Calls `listener` with every host whose key or robots.txt Crawl-delay changed, until the returned
   * function is called: a frontier re-places its hosts of that name, so a delay another crawl read
   * shorter applies to them at their next turn, not after the longer one they were placed with, and
   * a new IP another crawl resolved is the clock they wait for, not the old IP's.
   */
  onHostChanged(listener: HostChangedListener): () => void {
    this.hostListeners.add(listener);
    return () => void this.hostListeners.delete(listener);
  }

  /** How many listen, to freed keys or changed hosts (a worker that ran hundreds of crawls should have one of each per open crawl). */
  get listenerCount(): number {
    return this.listeners.size + this.hostListeners.size;
  }

  /** The politeness key of a host: its IP once known, else the host name itself. */
  keyOf(host: string): string {
    return this.hostKeys.get(host) ?? host;
  }

  /**
   * Records the host's IP (or any shared key). If a holder of this host holds its old key, the
   * hold moves to the new one; returns false when the new key is already held by another — the
   * caller should then give its lease back (the request must not start). With `readyCheck`, also
   * false when the new key's delay has not passed yet (the host was leased under its name's clock,
   * and another name on that IP was fetched a moment ago). Every listener hears of a changed key
   * (onHostChanged), whichever crawl's frontier resolved it.
   */
  setHostKey(host: string, key: string, readyCheck?: { now: number; cfg: DelayConfig }): boolean {
    const oldKey = this.keyOf(host);
    if (oldKey === key) return true;
    this.hostKeys.set(host, key);
    const moved = this.moveHold(host, oldKey, key, readyCheck);
    for (const listener of this.hostListeners) listener(host);
    return moved;
  }

  /** Moves the hold of a holder of `host` from its old key to its new one (setHostKey); false when it could not. */
  private moveHold(host: string, oldKey: string, key: string, readyCheck?: { now: number; cfg: DelayConfig }): boolean {
    const holder = this.holders.get(oldKey);
    if (holder === undefined || holder.host !== host) return true;
    this.holders.delete(oldKey);
    this.held.delete(holder);
    let moved = false;
    if (!this.holders.has(key) && !(readyCheck && this.readyAt(host, readyCheck.cfg, readyCheck.now) > readyCheck.now)) {
      this.holders.set(key, holder);
      this.held.set(holder, key);
      this.leasesDue.delete(key);
      moved = true;
    }
    this.freed(oldKey);
    return moved;
  }

  /**
   * A frontier uses the host's key and Crawl-delay from now on, until it calls releaseHosts: they
   * stay while any frontier does. Forgetting them under a crawl that still uses the host would let
   * its next request run under the host's name, beside its IP's other hosts, and without the delay
   * robots.txt asked for (the crawl reads robots.txt once a run).
   */
  useHost(host: string): void {
    this.hostUsers.set(host, (this.hostUsers.get(host) ?? 0) + 1);
  }

  /**
   * A frontier no longer uses these hosts (its last crawl closed): the key and Crawl-delay of each
   * that no other frontier uses are forgotten, or a worker running for weeks would keep every host
   * any of its crawls met. A crawl that meets the host again reads them from the database (frontier_host)
   * or learns them anew, its IP at its DNS stage and its Crawl-delay from robots.txt, before its request.
   */
  releaseHosts(hosts: Iterable<string>): void {
    for (const host of hosts) {
      const users = (this.hostUsers.get(host) ?? 0) - 1;
      if (users > 0) {
        this.hostUsers.set(host, users);
        continue;
      }
      this.hostUsers.delete(host);
      this.hostKeys.delete(host);
      this.robotsDelays.delete(host);
    }
  }

  /** How many entries the registry keeps for hosts: keys, Crawl-delays and users (releaseHosts forgets those no frontier uses). */
  get hostEntryCount(): number {
    return this.hostKeys.size + this.robotsDelays.size + this.hostUsers.size;
  }

  /** Robots.txt crawl-delay of a host in ms (null: none). */
  setRobotsDelay(host: string, ms: number | null): void {
    if ((this.robotsDelays.get(host) ?? null) === ms) return;
    if (ms === null) this.robotsDelays.delete(host);
    else this.robotsDelays.set(host, ms);
    for (const listener of this.hostListeners) listener(host);
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

  /** The key this holder's request holds, if any. */
  heldKey(holder: KeyHolder): string | undefined {
    return this.held.get(holder);
  }

  /**
   * Earliest time a request to this host may start under `cfg` (ignores whether the key is busy),
   * asked at `now`: a key's timing that ends well after now is taken as ending now, and kept so
   * (timingAsOf: the wall clock was set back since).
   */
  readyAt(host: string, cfg: DelayConfig, now: number): number {
    const key = this.keyOf(host);
    let timing = this.timings.get(key);
    if (timing) {
      const asOf = timingAsOf(timing, now);
      if (asOf !== timing) this.timings.set(key, (timing = asOf));
    }
    return nextAllowedAt(timing, cfg, this.robotsDelays.get(host));
  }

  /**
   * A request holding `holdingHost`'s key is to wait for the key `wanted` too (robots.txt redirected
   * to another IP). Returns the function that ends that wait, or null when the wait would close a
   * cycle of such waits (closesWaitCycle): none of them would ever go on, so this one must not wait.
   */
  waitForKey(holdingHost: string, wanted: string): (() => void) | null {
    const current = [...this.waits].map((w) => ({ held: this.keyOf(w.holdingHost), wanted: w.wanted }));
    if (closesWaitCycle(current, { held: this.keyOf(holdingHost), wanted })) return null;
    const wait = { holdingHost, wanted };
    this.waits.add(wait);
    return () => void this.waits.delete(wait);
  }

  /**
   * Puts the holder in line for its host's key, held now by another request: when that request
   * frees it, the key goes to the first in line at once, before any frontier can lease it (they
   * hear of it only when no one waits in line), so requests outside the leases — of any crawl of
   * the worker — take their turns in the order they asked, instead of whoever looks first.
   */
  waitTurn(holder: KeyHolder): KeyTurnLine {
    const key = this.keyOf(holder.host);
    let line = this.lines.get(key);
    if (!line) this.lines.set(key, (line = []));
    let handed = false;
    let waiter!: KeyWaiter;
    const turn = new Promise<boolean>((resolve) => {
      waiter = { holder, resolve: (h) => resolve((handed = h)) };
    });
    line.push(waiter);
    return {
      turn,
      leave: () => {
        const waiting = this.lines.get(key);
        const at = waiting?.indexOf(waiter) ?? -1;
        if (at >= 0) waiting!.splice(at, 1);
        if (waiting?.length === 0) this.lines.delete(key);
        if (handed && this.held.get(holder) === key) this.abandon(holder);
      },
    };
  }

  /**
   * When the first host of a frontier that waited for the key while it was held may take it, now
   * that it is free (undefined: none waited, or a request has taken the key since).
   */
  leaseDueAt(key: string): number | undefined {
    return this.leasesDue.get(key);
  }

  /** Takes the holder's host's key if it is free and its delay has passed; false otherwise. */
  tryAcquire(holder: KeyHolder, now: number, cfg: DelayConfig): boolean {
    return this.readyAt(holder.host, cfg, now) <= now && this.hold(holder);
  }

  /**
   * Takes the holder's host's key if it is free, while its delay may still run: the holder waits
   * for readyAt() before its request, as a host batch does between its URLs, and nobody else's
   * request can take the turn meanwhile. False when the key is held, or the holder holds one.
   */
  hold(holder: KeyHolder): boolean {
    const key = this.keyOf(holder.host);
    if (this.holders.has(key) || this.held.has(holder)) return false;
    this.holders.set(key, holder);
    this.held.set(holder, key);
    this.leasesDue.delete(key);
    return true;
  }

  /** The holder's request finished: record when it started and how long it took, free the key. */
  finish(holder: KeyHolder, timing: KeyTiming): string | undefined {
    const key = this.held.get(holder);
    if (key === undefined) return undefined;
    this.timings.set(key, { lastStartAt: timing.lastStartAt, lastDurationMs: Math.max(0, timing.lastDurationMs) });
    this.release(holder, key);
    // A worker running for weeks meets IPs by the hundred thousand: a pass over the keys whenever their
    // number doubled keeps the map to about twice the keys in use, at an amortised constant cost.
    if (this.timings.size >= this.pruneAtSize) {
      this.pruneIdleKeys(timing.lastStartAt + Math.max(0, timing.lastDurationMs));
      this.pruneAtSize = Math.max(MIN_KEYS_BEFORE_PRUNE, 2 * this.timings.size);
    }
    return key;
  }

  /** How many clocks and leases' turns the registry keeps for keys (idle ones go: pruneIdleKeys). */
  get keyEntryCount(): number {
    return this.timings.size + this.leasesDue.size;
  }

  /**
   * Forgets the clocks of keys whose last request ended longer ago than the longest delay an ICD may
   * set (so every crawl may start its next request at once, as for a key never used) and that no
   * request holds or waits in line for; and the leases' turns at keys that ended as long ago. `now`:
   * the end of a request just recorded, so a clock is never judged older than it is.
   */
  pruneIdleKeys(now: number): void {
    const cutoff = now - MAX_POLITENESS_DELAY_MS;
    const inUse = (key: string) => this.holders.has(key) || this.lines.has(key);
    for (const [key, t] of this.timings) {
      if (t.lastStartAt + Math.max(0, t.lastDurationMs) <= cutoff && !inUse(key)) this.timings.delete(key);
    }
    for (const [key, due] of this.leasesDue) if (due <= cutoff && !inUse(key)) this.leasesDue.delete(key);
  }

  /** A request of a batch finished while the holder keeps its key: record its timing only. */
  record(holder: KeyHolder, timing: KeyTiming): string | undefined {
    const key = this.held.get(holder);
    if (key !== undefined) this.timings.set(key, { lastStartAt: timing.lastStartAt, lastDurationMs: Math.max(0, timing.lastDurationMs) });
    return key;
  }

  /** The holder's request never started: free the key without touching its clock. */
  abandon(holder: KeyHolder): string | undefined {
    const key = this.held.get(holder);
    if (key === undefined) return undefined;
    this.release(holder, key);
    return key;
  }

  private release(holder: KeyHolder, key: string): void {
    this.holders.delete(key);
    this.held.delete(holder);
    this.freed(key);
  }

  private freed(key: string): void {
    if (this.handOver(key)) return;
    let due: number | undefined;
    const hear = (listener: KeyFreedListener) => {
      const at = listener(key);
      if (typeof at === 'number') due = due === undefined ? at : Math.min(due, at);
    };
    if (this.listeners.size < 2) this.listeners.forEach(hear);
    else {
      // The first frontier ready takes the key: heard in the order the crawls were opened, the first
      // two of four crawls of one IP took every turn and the others fetched nothing for minutes.
      const listeners = [...this.listeners];
      const first = this.firstHeard++ % listeners.length;
      for (let i = 0; i < listeners.length; i++) hear(listeners[(first + i) % listeners.length]!);
    }
    if (due === undefined) this.leasesDue.delete(key);
    else this.leasesDue.set(key, due);
  }

  /** Gives a freed key to the first request in line for it that can take it; false when none could. */
  private handOver(key: string): boolean {
    const line = this.lines.get(key);
    if (!line) return false;
    for (let w = line.shift(); w; w = line.shift()) {
      if (line.length === 0) this.lines.delete(key);
      // Its host moved to another key meanwhile: it looks again, and waits in that key's line.
      const takes = this.keyOf(w.holder.host) === key && this.hold(w.holder);
      w.resolve(takes);
      if (takes) return true;
    }
    return false;
  }
}
