/**
 * The one typed timeout helper of the fetch stage: every network wait (DNS, connect, headers,
 * the whole exchange) is bounded through it, and the error says which limit was hit, so
 * `classifyError` can decide from the class alone.
 */

/** Which limit expired. */
export type TimeoutKind = 'dns' | 'connect' | 'headers' | 'total';

/** A limit expired. `kind` maps one-to-one onto a FailureReason. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor(
    readonly kind: TimeoutKind,
    readonly ms: number,
  ) {
    super(`${kind} timeout after ${ms} ms`);
  }
}

/** The crawl is pausing or stopping and would not wait any longer for this fetch: it goes back to the queue. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
  constructor() {
    super('interrupted: the crawl is pausing or stopping');
  }
}

/** A running deadline: `signal` aborts with a TimeoutError when it expires; `clear()` disarms it. */
export interface Deadline {
  readonly signal: AbortSignal;
  readonly expired: boolean;
  clear(): void;
}

/**
 * Starts a deadline of `ms` milliseconds; `onExpire` runs once, when it passes (not after
 * `clear()`). The timer keeps the process alive on purpose: work that waits on nothing else
 * (an injected lookup, say) must still time out. Every caller clears its deadlines.
 */
export function startDeadline(ms: number, kind: TimeoutKind, onExpire?: (err: TimeoutError) => void): Deadline {
  // The AbortController is made only when someone asks for the signal: the fetcher starts three
  // deadlines per request and uses none of their signals.
  let controller: AbortController | null = null;
  let reason: TimeoutError | null = null;
  const timer = setTimeout(() => {
    reason = new TimeoutError(kind, ms);
    controller?.abort(reason);
    onExpire?.(reason);
  }, ms);
  return {
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (reason) controller.abort(reason);
      }
      return controller.signal;
    },
    get expired() {
      return reason !== null;
    },
    clear: () => clearTimeout(timer),
  };
}

/**
 * Runs `work` with a deadline: resolves with its result, or rejects with a TimeoutError when `ms`
 * pass first. `work` receives the deadline's signal so it can stop what it started.
 */
export async function withTimeout<T>(ms: number, kind: TimeoutKind, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  let deadline: Deadline | undefined;
  const expiry = new Promise<never>((_, reject) => {
    deadline = startDeadline(ms, kind, reject);
  });
  try {
    return await Promise.race([work(deadline!.signal), expiry]);
  } finally {
    deadline!.clear();
  }
}
