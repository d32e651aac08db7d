import { transientFailure } from '../coherence';
import { cutByFailedFetch } from '../capture';

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
  /** Its WARC-Truncated value, null when whole (Capture.truncated). */
  truncated: string | null;
}

/**
 * Where a page's recrawls start: its depth and the answer the first round compares with (as
 * answerOf gives); null answer: no content of the page known, the first round's answer is its first.
 */
export interface RecrawlStart {
  depth: number;
  answer: string | null;
}

/**
 * Where the recrawls of a page start, from its captures, latest first: its latest answer whatever
 * its status, as a round compares it. A page that answered 200, then 404 (or a redirect), starts
 * from its 404, so the first round finds it changed only if it answers otherwise again. A transient
 * failure is no answer about the page (as in a round); a 304 answered the payload its revisit record
 * points to (its digest). A body a failed fetch cut off (cutByFailedFetch) is not the page's content:
 * the answer before it is taken, or none is known when there is none (the first round then finds
 * the page neither changed nor unchanged). Null when none answered.
 */
export function recrawlStart(latestFirst: readonly PageCapture[]): RecrawlStart | null {
  const answers = latestFirst.filter((c) => !transientFailure(c.status));
  const latest = startingCapture(latestFirst);
  if (!latest) return answers.length ? { depth: answers[0]!.depth, answer: null } : null;
  const answer = successful(latest.status) || latest.status === 304 ? latest.payloadDigest : statusAnswer(latest.status);
  return { depth: latest.depth, answer };
}

/**
 * The capture a page's recrawls start from (recrawlStart's answer is of it): its latest answer
 * about the page that a failed fetch did not cut off; null when there is none. Pure.
 */
export function startingCapture<C extends PageCapture>(latestFirst: readonly C[]): C | null {
  return latestFirst.find((c) => !transientFailure(c.status) && !cutByFailedFetch(c.truncated)) ?? null;
}
