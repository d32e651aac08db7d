/**
 * Time as a dependency: the frontier and the crawl loop ask a `Clock`, so a simulation runs the
 * same scheduling code on simulated time and tests never sleep for real.
 */
export interface Clock {
  /** Current time in ms (epoch ms for the real clock). */
  now(): number;
  /** Resolves once `now()` has reached `at` (at once if it already has). */
  sleepUntil(at: number): Promise<void>;
}

/** The wall clock. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleepUntil(at: number): Promise<void> {
    const ms = at - Date.now();
    if (!(ms > 0)) return Promise.resolve();
    return new Promise((resolve) => setTimeout(resolve, Math.min(ms, 2 ** 31 - 1)));
  },
};

/**
 * A stopwatch started now: each call gives the ms elapsed since, on the monotonic clock, rounded up.
 * The wall clock (Date.now) jumps when NTP or an operator sets it, and a duration read off it then
 * came out negative, or hours long: a fetch's crawl-log duration, a crawl's time limit.
 * A request's end is taken as its start's Date.now (whole ms, cut down, read just after this starts)
 * plus this, rounded up: rounded to the nearest, that end fell up to 1 ms before the wall clock's, and the host's next
 * request 1 ms before its delay was out (bench:politeness, a gap of 199 ms for a 200 ms delay).
 */
export function startStopwatch(): () => number {
  const start = performance.now();
  return () => Math.ceil(performance.now() - start);
}

interface Sleeper {
  at: number;
  seq: number;
  resolve: () => void;
}

/**
 * Simulated time that moves only when told to. `advanceTo`/`advance` wake sleepers in time order;
 * `runNext` jumps to the earliest sleeper, which is how a discrete-event simulation runs.
 */
export class SimulatedClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];
  private seq = 0;

  constructor(start = 0) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleepUntil(at: number): Promise<void> {
    if (at <= this.current) return Promise.resolve();
    return new Promise((resolve) => {
      this.sleepers.push({ at, seq: this.seq++, resolve });
    });
  }

  /** Number of pending sleepers (a simulation is finished when nothing sleeps and nothing runs). */
  get pending(): number {
    return this.sleepers.length;
  }

  /** Moves time forward to `at` (never backwards), waking every sleeper due by then in order. */
  async advanceTo(at: number): Promise<void> {
    for (;;) {
      const due = this.earliest();
      if (!due || due.at > at) break;
      this.sleepers.splice(this.sleepers.indexOf(due), 1);
      this.current = Math.max(this.current, due.at);
      due.resolve();
      // Let the woken task run up to its next await before waking the next one.
      await new Promise<void>((r) => setImmediate(r));
    }
    this.current = Math.max(this.current, at);
  }

  advance(ms: number): Promise<void> {
    return this.advanceTo(this.current + ms);
  }

  /** Jumps to the earliest sleeper and wakes it; returns false when nothing sleeps. */
  async runNext(): Promise<boolean> {
    const due = this.earliest();
    if (!due) return false;
    await this.advanceTo(due.at);
    return true;
  }

  private earliest(): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const s of this.sleepers) if (!best || s.at < best.at || (s.at === best.at && s.seq < best.seq)) best = s;
    return best;
  }
}
