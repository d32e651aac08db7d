import { transientFailure } from '../coherence';

/** Stored in place of a payload digest while a page answers a redirect or a client error. */
export const STATUS_ANSWER = 'status:';

/**
 * What a refetch compares with the last one: a 2xx answer's payload digest; for a redirect or a
 * client error (404, 410…), the status itself, so a page gone for good changed once, when it went,
 * and not again every round (it was refetched every round for ever, its parent with it). A
 * transient failure (transientFailure) is no answer: refetchPage observes nothing then.
 */
export function answerOf(status: number, payloadDigest: string): string {
  return successful(status) ? payloadDigest : statusAnswer(status);
}

function statusAnswer(status: number): string {
  return `${STATUS_ANSWER}${status}`;
}

function successful(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A capture of a page, as recrawlStart reads it. */
export interface PageCapture {
  status: number;
  depth: number;
  payloadDigest: string | null;
}

/** Where a page's recrawls start: its depth and the answer the first round compares with (as answerOf gives). */
export interface RecrawlStart {
  depth: number;
  answer: string | null;
}

/**
 * Where the recrawls of a page start, from its captures, latest first: its latest answer whatever
 * its status, as a round compares it. A page that answered 200, then 404 (or a redirect), starts
 * from its 404, so the first round finds it changed only if it answers otherwise again. A transient
 * failure is no answer about the page (as in a round); a 304 answered the payload its revisit record
 * points to (its digest). Null when none answered.
 */
export function recrawlStart(latestFirst: readonly PageCapture[]): RecrawlStart | null {
  const latest = latestFirst.find((c) => !transientFailure(c.status));
  if (!latest) return null;
  const answer = successful(latest.status) || latest.status === 304 ? latest.payloadDigest : statusAnswer(latest.status);
  return { depth: latest.depth, answer };
}
