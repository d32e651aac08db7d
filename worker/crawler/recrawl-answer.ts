import { classifyChange, transientFailure, type PageFingerprint } from '../coherence';
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

/**
 * What a recrawl round compares of a page: its answer (answerOf) and, while that answer is an HTML
 * page read whole, the fingerprint the change is judged by (null: none, the answers decide).
 */
export interface RoundAnswer {
  answer: string;
  fingerprint: PageFingerprint | null;
}

/**
 * Whether a page's answer `now` is a change from `last`, judged as the coherence view's classifier
 * judges a revisit (classifyChange): two HTML pages with fingerprints changed unless the classifier
 * finds them unchanged (the same main text once dates and clock times are masked, or shingles at
 * least 0.9 alike, and the same navigation links), whatever else in their bytes differs (a "generated
 * at" line, a CSRF token, markup); other answers (a redirect, a client error, another type, a page
 * with no fingerprint stored yet) changed when they differ. Pure.
 */
export function answerChanged(last: RoundAnswer, now: RoundAnswer): boolean {
  if (now.answer === last.answer) return false;
  if (!last.fingerprint || !now.fingerprint) return true;
  return classifyChange(last.fingerprint, { kind: 'fetched', fingerprint: now.fingerprint }).status !== 'unchanged';
}

/**
 * The fingerprint the next round compares with: the new answer's when the page changed or none was
 * kept, else the one it was compared with, so that small changes, each too small to count, add up to
 * a change once the page has drifted far enough from the version last judged new. Null when the new
 * answer has none (not an HTML page read whole). Pure.
 */
export function fingerprintKept(last: RoundAnswer, now: RoundAnswer, changed: boolean): PageFingerprint | null {
  if (!now.fingerprint) return null;
  return changed || !last.fingerprint ? now.fingerprint : last.fingerprint;
}

/**
 * Whether a refetch reads the fingerprint of the page's last answer from its stored record before
 * judging it: only when answerChanged would use it and none is kept (a first round's page, a table
 * an earlier version made), so a page whose payload is the same, or whose answer is no HTML page
 * now, costs no read; nor for a last answer that is a status, unknown, or a decompression bomb. Pure.
 */
export function storedFingerprintWanted(last: RoundAnswer & { bomb: boolean }, now: RoundAnswer): boolean {
  if (last.fingerprint || last.bomb || !last.answer || last.answer.startsWith(STATUS_ANSWER)) return false;
  return now.fingerprint !== null && now.answer !== last.answer;
}

/**
 * Of the fingerprints the crawl kept of a page (the coherence view's visit and revisit), the one of
 * the answer the recrawls start from (`answer`, a payload digest): a 2xx read whole with that digest;
 * null when none is (the first round then judges by the digest). Pure.
 */
export function fingerprintOfAnswer(answer: string | null, kept: readonly (PageFingerprint | null)[]): PageFingerprint | null {
  if (answer === null || answer.startsWith(STATUS_ANSWER)) return null;
  return kept.find((fp) => fp && successful(fp.status) && !fp.cut && fp.payloadDigest === answer) ?? null;
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
