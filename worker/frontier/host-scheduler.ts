import { Heap } from 'heap-js';
import { waitEndAsOf, type DelayConfig, type PolitenessRegistry } from '../politeness';

/** The scheduling view of one host of one crawl; the frontier owns and mutates it. */
export interface SchedHost {
  readonly host: string;
  readonly politeness: DelayConfig & { enabled: boolean };
  /** URLs queued now (state queued). */
  queued: number;
  /** Precedence and discovery order of the best queued URL (meaningful when queued > 0). */
  headPrecedence: number;
  headSeq: number;
  /** Holds its politeness key for a batch: not schedulable until the batch is back. */
  holding: boolean;
  /**
   * Host back-off (politeness/host-outage.ts): 0, none; else not schedulable before this time, when
   * one of its URLs is leased (its try), after which it is held (Infinity) until told again.
   */
  holdUntil: number;
  /** How long the hold was to last when it was set (Infinity with a hold until told again): holdEndAt. */
  holdWaitMs: number;
  /** Bumped on every re-placement: heap items with an older version are stale. */
  version: number;
  /** False once the crawl was closed: never scheduled again. */
  live: boolean;
}

interface Item {
  h: SchedHost;
  version: number;
  precedence: number;
  seq: number;
  readyAt: number;
  /** The longest wait that put it at readyAt (waitEndAsOf: a wall clock set back). */
  waitMs: number;
}

/**
 * When the host's back-off hold ends, as the clock reads it at `now` (0: not held): a hold set
 * before the wall clock was set back, further ahead than its wait, ends now (waitEndAsOf) rather
 * than a step's length later.
 */
export function holdEndAt(h: Pick<SchedHost, 'holdUntil' | 'holdWaitMs'>, now: number): number {
  return h.holdUntil === 0 ? 0 : waitEndAsOf(h.holdUntil, h.holdWaitMs, now);
}

const byBest = (a: Item, b: Item) => b.precedence - a.precedence || a.readyAt - b.readyAt || a.seq - b.seq;
const byReadyAt = (a: Item, b: Item) => a.readyAt - b.readyAt || a.seq - b.seq;

/**
 * Chooses the next host in memory: hosts whose politeness key is free and whose delay has passed
 * sit in a max-heap by head precedence (ties: earliest ready); hosts still in their delay sit in
 * a min-heap by ready time; hosts whose key is busy are parked on that key until it is freed
 * (keyFreed, whichever crawl of the worker held it). The registry's key may be taken or its clock
 * moved by another crawl meanwhile: pick() checks again as it acquires, and places such a host anew.
 * Hosts in either heap are also listed under their key (placed), so a key freed while one still
 * waits out its delay is its turn as much as a parked host's.
 * Heap entries are never removed in place: a version stamp marks the stale ones (lazy deletion).
 */
export class HostScheduler {
  private readonly ready = new Heap<Item>(byBest);
  private readonly waiting = new Heap<Item>(byReadyAt);
  private readonly parked = new Map<string, Set<SchedHost>>();
  /** key → the polite hosts in the heaps under it; host → that key (its listing goes at its next touch). */
  private readonly placed = new Map<string, Set<SchedHost>>();
  private readonly placedUnder = new Map<SchedHost, string>();
  private hosts = 0;

  constructor(private readonly registry: PolitenessRegistry) {}

  /** Counts a new host (used to decide when stale heap entries are worth compacting). */
  register(): void {
    this.hosts += 1;
  }

  /** Re-places a host after anything about it changed (queue head, key, clock, holding). */
  touch(h: SchedHost, now: number): void {
    h.version += 1;
    this.unlist(h);
    if (!h.live || h.queued === 0 || h.holding) return;
    const holdEnd = holdEndAt(h, now);
    if (holdEnd > now) {
      // Waits for its back-off's end alone, listed under no key: it takes no key's turn meanwhile.
      if (holdEnd !== Number.POSITIVE_INFINITY) this.push(this.waiting, h, holdEnd, h.holdWaitMs);
      return;
    }
    if (!h.politeness.enabled) {
      this.push(this.ready, h, Number.NEGATIVE_INFINITY, 0);
      return;
    }
    const key = this.registry.keyOf(h.host);
    if (this.registry.isBusy(key)) {
      let set = this.parked.get(key);
      if (!set) this.parked.set(key, (set = new Set()));
      set.add(h);
      return;
    }
    const readyAt = this.registry.readyAt(h.host, h.politeness, now);
    // Its last request ends at most CLOCK_SET_BACK_MS after now (timingAsOf), its delay is at most maxDelayMs.
    this.push(readyAt <= now ? this.ready : this.waiting, h, readyAt, h.politeness.maxDelayMs);
    this.list(h, key);
  }

  /**
   * A key was freed (by a request of this crawl or of another one sharing the registry, or a host
   * moved key): re-places the hosts parked on it; when there were any, or hosts placed under it in
   * their delay, the earliest time one of them may take it (−∞: none does any more; null: none was
   * parked or placed under it).
   */
  keyFreed(key: string, now: number): number | null {
    const parked = this.parked.get(key);
    const placed = this.placed.get(key);
    if (!parked && !placed) return null;
    this.parked.delete(key);
    for (const h of parked ?? []) this.touch(h, now);
    // A host still waiting out its delay (not parked: the key was free when it was placed) keeps its
    // turn too: it would otherwise miss this one and be parked only when the next request took the key.
    let due: number | null = null;
    for (const h of this.placed.get(key) ?? []) {
      if (!h.live) this.unlist(h); // its crawl was closed
      if (!h.live || h.queued === 0 || h.holding || holdEndAt(h, now) > now || this.registry.keyOf(h.host) !== key) continue;
      const at = this.registry.readyAt(h.host, h.politeness, now);
      due = due === null ? at : Math.min(due, at);
    }
    return due ?? (parked ? Number.NEGATIVE_INFINITY : null);
  }

  /**
   * The best host that may start a request now, with its politeness key acquired (politeness off:
   * no key). The caller takes URLs from it and touches it again.
   */
  pick(now: number): SchedHost | null {
    this.promote(now);
    for (;;) {
      const item = this.ready.pop();
      if (!item) return null;
      const h = item.h;
      if (item.version !== h.version) continue;
      if (!h.politeness.enabled) return h;
      if (this.registry.tryAcquire(h, now, h.politeness)) return h;
      // Another host on the same IP took the key (in this crawl or another), or its clock moved: place it again.
      this.touch(h, now);
    }
  }

  /**
   * Earliest time pick() may succeed (−∞: now), or null when every host waits on a busy key, as the
   * clock reads it at `now`: a time set before the wall clock was set back is now, as promote takes it.
   */
  wakeAt(now: number): number | null {
    this.dropStale(this.ready);
    const top = this.ready.peek();
    if (top) return top.readyAt;
    this.dropStale(this.waiting);
    const waiting = this.waiting.peek();
    return waiting ? waitEndAsOf(waiting.readyAt, waiting.waitMs, now) : null;
  }

  private promote(now: number): void {
    for (;;) {
      const top = this.waiting.peek();
      // A time set before the wall clock was set back, further ahead than its wait, is due now.
      if (!top || waitEndAsOf(top.readyAt, top.waitMs, now) > now) return;
      this.waiting.pop();
      if (top.version === top.h.version) this.ready.push(top);
    }
  }

  private push(heap: Heap<Item>, h: SchedHost, readyAt: number, waitMs: number): void {
    heap.push({ h, version: h.version, precedence: h.headPrecedence, seq: h.headSeq, readyAt, waitMs });
    if (heap.size() > 4 * this.hosts + 1024) {
      const live = heap.toArray().filter((i) => i.version === i.h.version);
      heap.init(live);
    }
  }

  private list(h: SchedHost, key: string): void {
    let set = this.placed.get(key);
    if (!set) this.placed.set(key, (set = new Set()));
    set.add(h);
    this.placedUnder.set(h, key);
  }

  private unlist(h: SchedHost): void {
    const key = this.placedUnder.get(h);
    if (key === undefined) return;
    this.placedUnder.delete(h);
    const set = this.placed.get(key);
    set?.delete(h);
    if (set?.size === 0) this.placed.delete(key);
  }

  private dropStale(heap: Heap<Item>): void {
    for (;;) {
      const top = heap.peek();
      if (!top || top.version === top.h.version) return;
      heap.pop();
    }
  }
}
