import type { CrawlContext } from './crawl-context';
import {
  CHANGING_ERRORS, ROUND_FAILED_OUTCOME, ROUND_RECOVERED_OUTCOME, roundFailedLogMessage, roundFailedMixedLogMessage, roundRecoveredLogMessage, type RoundFailure,
} from './recrawl-history';

/**
 * A recrawl round's failures in the crawl log, which they must not flood: a round that fails is
 * tried again every minute, for a whole weekend if nobody looks. Failures in a row with the same
 * error make one entry, rewritten at each (its time stays the first's; its `retries` count the ones
 * after it, its message the last one's time); an error that changes starts an entry of its own, up
 * to MAX_FAILURE_ENTRIES_A_ROUND entries a round, the last of which then counts every later failure
 * "with changing errors" (two errors taking turns made an entry a minute); and the round that
 * finally finishes gets an entry saying after how many failed attempts. The round's
 * failure itself (engine_recrawl_failure) keeps what the cockpit shows of the last one.
 */

type LogContext = Pick<CrawlContext, 'store' | 'icd'>;

/** The most ROUND_FAILED_OUTCOME entries one round adds to the crawl log. */
export const MAX_FAILURE_ENTRIES_A_ROUND = 10;

/**
 * Logs `f`, the round's failure just stored; `previous`: its failure before that one (null: none).
 * Call it in the transaction that stored `f`.
 */
export function logRoundFailure(ctx: LogContext, f: RoundFailure, previous: RoundFailure | null): void {
  // A round's failure and its entry are stored in one transaction, and a round fails only once the
  // one before it finished: the latest entry of the outcome is the one of `previous`.
  const entry = previous ? ctx.store.latestLog(ROUND_FAILED_OUTCOME) : null;
  if (!entry) return addEntry(ctx, f, ROUND_FAILED_OUTCOME, roundFailedLogMessage(f, 1), 0, f.failedAt);
  const mixed = entry.message?.startsWith(`recrawl round ${f.round} failed `) && entry.message.includes(` ${CHANGING_ERRORS}, `);
  if (!mixed && sameError(previous!.message, f.message)) return ctx.store.updateLog(entry.id, roundFailedLogMessage(f, entry.retries + 2), entry.retries + 1);
  if (mixed || ctx.store.countLogs(ROUND_FAILED_OUTCOME, `recrawl round ${f.round} failed`) >= MAX_FAILURE_ENTRIES_A_ROUND) {
    return ctx.store.updateLog(entry.id, roundFailedMixedLogMessage(f, entry.retries + 2), entry.retries + 1);
  }
  addEntry(ctx, f, ROUND_FAILED_OUTCOME, roundFailedLogMessage(f, 1), 0, f.failedAt);
}

/**
 * Whether two failure messages tell of the same error: equal once every run of digits is masked, as
 * the numbers an error quotes (a timeout's milliseconds, a file's serial, a byte offset, a port)
 * often differ from one attempt to the next while the error stays the same.
 */
export function sameError(a: string, b: string): boolean {
  const masked = (message: string) => message.replace(/\d+/g, '#');
  return masked(a) === masked(b);
}

/**
 * Logs that the round `f` is the failure of (null: it did not fail) finished at `at`. Call it in
 * the transaction that ends the round.
 */
export function logRoundRecovery(ctx: LogContext, f: RoundFailure | null, at: number): void {
  if (f) addEntry(ctx, f, ROUND_RECOVERED_OUTCOME, roundRecoveredLogMessage(f), f.failures, at);
}

/** A crawl-log entry of the round, under the page it was at when it last failed (else the first seed). */
function addEntry(ctx: LogContext, f: RoundFailure, outcome: string, message: string, retries: number, at: number): void {
  ctx.store.addLog({ url: f.url ?? ctx.icd.seeds[0]!, status: null, outcome, message, size: 0, durationMs: 0, retries, at: new Date(at) });
}
