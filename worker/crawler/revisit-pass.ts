import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FailureReason, HttpExchange } from '../capture';
import type { CaptureObject, CaptureWritten } from '../warc';
import type { RobotsVerdict } from '../robots';
import { ROBOTS_REFUSAL, type RobotsRefusalReason } from '../robots/robots-refusal';
import { bodyUnlessBomb, dnsFailure, releaseBody, type FetchOutcome, type FetchTiming } from '../fetch';
import { extractFromResponse, pageLinkSettingsOf } from '../extract';
import {
  buildCertificate, classifyChange, poissonRateMle, revisitOrder, summarise, validatorsTrusted, visitedAfterReference,
  type ClassifiedPage, type PageStatus, type RevisitExclusion, type RevisitObservation,
} from '../coherence';
import type { CrawlContext } from './crawl-context';
import { fingerprintHtml } from './page-fingerprint';
import { captureTitle } from './stages/extract-stage';
import { politeFetch } from './polite-fetch';
import { waitUntil } from './wait-until';
import { waitEndAsOf } from '../politeness';
import type { StoredCoherencePage } from './coherence-store';
import { runInTransaction } from '../store/sqlite';
import { checkObjectRecords } from './web-object-records';

const DAY_MS = 86_400_000;
export const CERTIFICATE_FILE = 'coherence-certificate.json';

export interface RevisitPassOptions {
  /** Checked between revisits: a pause or stop leaves the rest for the resumed run. */
  halted(): boolean;
  onCoherence?(payload: unknown): void;
  now?(): number;
}

/**
 * The revisit half of a visit–revisit capture. The reference time is the end of the visit pass;
 * every captured HTML page is fetched again (conditional GET when its validators are trusted and its visit was not cut off) in
 * pyramid order — last visited, first revisited — so each [visit, revisit] interval contains the
 * reference time, unless robots.txt now disallows it or an exclude pattern added since its visit
 * matches it (then it is missing, not requested). Each page is classified,
 * the revisit archived (a revisit record for a 304 or an identical payload), and at the end the
 * certificate is written beside the WARC files.
 * Returns false when halted before the end.
 */
export async function runRevisitPass(ctx: CrawlContext, warcDir: string, o: RevisitPassOptions): Promise<boolean> {
  const now = o.now ?? Date.now;
  const store = ctx.coherence;
  if (store.isFinished()) return true;
  const referenceAt = store.startRun(now());
  // A page visited after the reference time (queued while the pass ran, visited once it ended) is not
  // revisited: its visit and revisit would not bracket the reference time, so it has no place in the
  // certificate. (The engine finishes a pass begun before it visits anything else.)
  const pages = store.pages().filter((p) => !visitedAfterReference(p.visitedAt, referenceAt));
  const pending = pages.filter((p) => p.revisitedAt === null);
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const { order } = revisitOrder(pending.map((p) => ({ id: p.url, visitedAt: p.visitedAt, rate: null })), referenceAt, 1 / DAY_MS);
  let done = pages.length - pending.length;
  for (const url of order) {
    if (o.halted()) return false;
    // A pattern added since the visit (live-exclusions.ts) excludes the page from its revisit too.
    if (ctx.excludedByPattern(url)) recordExcluded(ctx, byUrl.get(url)!, 'exclude-match');
    else if (!(await revisitWhenRobotsAllow(ctx, byUrl.get(url)!, o.halted))) return false;
    done++;
    o.onCoherence?.({ phase: 'revisit', revisited: done, pages: pages.length, referenceTime: new Date(referenceAt).toISOString() });
  }
  const classified = classifiedPages(store.pages().filter((p) => !visitedAfterReference(p.visitedAt, referenceAt)));
  const summary = summarise(classified, referenceAt);
  const certificate = buildCertificate({ id: ctx.crawlId, name: ctx.icd.name }, classified, referenceAt, now());
  writeFileSync(join(warcDir, CERTIFICATE_FILE), JSON.stringify(certificate, null, 2) + '\n');
  store.finishRun(summary);
  o.onCoherence?.({ phase: 'done', summary });
  return true;
}

/**
 * Revisits the page; robots.txt unreachable for now, asks again when the robots cache says (after a
 * few tries it counts as unavailable). False when a pause or stop meanwhile leaves the page to the
 * resumed run.
 */
async function revisitWhenRobotsAllow(ctx: CrawlContext, page: StoredCoherencePage, halted: () => boolean): Promise<boolean> {
  // Each revisit waits its host's turn on the worker's politeness clocks (polite-fetch.ts).
  let retryAt = await revisitPage(ctx, page, halted);
  while (retryAt !== null) {
    const at = retryAt;
    // robots.txt's retry time, unless the wall clock was set back since (waitEndAsOf).
    if (halted() || !(await waitUntil(() => waitEndAsOf(at, ctx.robots.longestRetryMs, Date.now()), halted))) return false;
    retryAt = await revisitPage(ctx, page, halted);
  }
  return true;
}

function classifiedPages(pages: StoredCoherencePage[]): ClassifiedPage[] {
  return pages.filter((p) => p.status && p.revisitedAt !== null).map((p) => ({
    url: p.url, status: p.status as PageStatus, evidence: p.evidence ?? '', payloadDigest: p.visit.payloadDigest, textDigest: p.visit.textDigest,
    visitedAt: p.visitedAt, revisitedAt: p.revisitedAt!, rate: p.changeRate,
  }));
}

/**
 * Fetches, archives, classifies and stores one revisit, unless robots.txt does not let it be made
 * (recordExcluded). Returns when to ask robots.txt again if it could not be fetched for now, else null.
 */
async function revisitPage(ctx: CrawlContext, page: StoredCoherencePage, halted: () => boolean): Promise<number | null> {
  // A visit a failed fetch cut off is asked for without its validators: a 304 would prove only that the
  // server's page is unchanged, not the cut body archived, and the whole answer is what the archive lacks.
  const conditional = validatorsTrusted(page.visit) && !page.visit.cut ? { etag: page.visit.etag ?? undefined, lastModified: page.visit.lastModified ?? undefined } : undefined;
  // robots.txt is asked again, as by recrawl rounds: read again each day, it may disallow the page since its visit.
  const result = await politeFetch(ctx, page.url, { conditional, halted, robots: true });
  if (result.kind === 'robots-refused') {
    const { verdict } = result;
    if (verdict.retryAt !== undefined) return verdict.retryAt;
    recordExcluded(ctx, page, robotsExclusionOf(verdict));
    return null;
  }
  const outcome: FetchOutcome = result.kind === 'outcome' ? result.outcome : dnsFailure(result.message);
  // Cut short by a pause or stop: not an observation; the page is revisited when the crawl resumes.
  if (!outcome.ok && outcome.reason === 'interrupted') return null;
  const at = outcome.ok ? outcome.exchange.date.getTime() : Date.now();
  // Classified and stored in the transaction of the revisit's capture (when it has one): a store that
  // fails leaves neither, and the page is revisited once when the pass runs again.
  const record = (observation: RevisitObservation, text: string | null) => () => recordRevisit(ctx, page, at, observation, text);
  if (!outcome.ok) {
    const failed = record({ kind: 'failed', at, status: null, reason: outcome.reason }, null);
    const unanswered = `${REVISIT_MESSAGE}; no answer about the page`;
    if (!outcome.partial) {
      runInTransaction(ctx.db, () => {
        failed();
        logUnanswered(ctx, page.url, outcome, unanswered);
      });
    }
    // What the server sent (a 5xx after the retries, a body cut off) is archived, logged with the
    // fetch's failure as its outcome and counted among the failures, as a page's is (commitItem).
    else await archive(ctx, outcome.partial, page, { message: `${unanswered}: ${outcome.message}`, failure: outcome.reason, alongside: failed, timing: outcome }).finally(() => releaseBody(outcome.partial!.body).catch(() => undefined));
    return null;
  }
  const ex = outcome.exchange;
  try {
    // A 304 to a request without validators (a visit cut off, validators not trusted; sent by a server
    // that answers any GET so) vouches for nothing asked: a response of its own, not a revisit record
    // through the visit's digest, and no proof the page is unchanged (unconditional-304, or visit-cut).
    if (ex.status === 304) await archive(ctx, ex, page, { profile: conditional ? 'server-not-modified' : undefined, alongside: record({ kind: 'not-modified', at, conditional: conditional !== undefined }, null), timing: outcome });
    else if (ex.status >= 200 && ex.status < 300) {
      const decoded = await bodyUnlessBomb(ex, ctx.icd.limits.maxDecodedBytes);
      if (!decoded) {
        // A decompression bomb, archived as received and not read: logged as a page's is (outcome
        // decompression-bomb), classified as changed (coherence/change-classifier.ts).
        const message = `${REVISIT_MESSAGE}; text and links not read: the body decodes to more than ${ctx.icd.limits.maxDecodedBytes} bytes`;
        await archive(ctx, ex, page, { message, failure: 'decompression-bomb', alongside: record({ kind: 'undecodable', at, payloadDigest: ex.payloadDigest }, null), timing: outcome });
        return null;
      }
      const { body, cut } = decoded;
      const extraction = extractFromResponse({ url: page.url, status: ex.status, headers: ex.headers, body, truncated: cut, maxDecodedBytes: ctx.icd.limits.maxDecodedBytes, ...pageLinkSettingsOf(ctx.icd.scope), text: false });
      const fp = fingerprintHtml(ex, body, extraction.links);
      await archive(ctx, ex, page, { alongside: record({ kind: 'fetched', fingerprint: fp.fingerprint }, fp.text), timing: outcome, title: captureTitle(extraction) });
    } else await archive(ctx, ex, page, { alongside: record({ kind: 'failed', at, status: ex.status, reason: `http-${ex.status}` }, null), timing: outcome });
  } finally {
    await releaseBody(ex.body).catch(() => undefined);
  }
  return null;
}

const REVISIT_MESSAGE = 'coherence revisit';

/**
 * A revisit's, recrawl's or feed poll's fetch that ended without a response to archive (refused,
 * reset, timed out, a name that does not resolve): its crawl-log entry, outcome the failure's reason, counted among the crawl's failures as a
 * page's is (and as CrawlContext.restoreStats counts them again); marked notRequested when its host's robots.txt got no
 * answer, so the hosts report counts no fetch for it. `message` says what fetch it was.
 */
export function logUnanswered(
  ctx: CrawlContext,
  url: string,
  outcome: { reason: string; message: string; durationMs: number; retries: number; notRequested?: true },
  message: string,
): void {
  ctx.store.addLog({ url, status: null, outcome: outcome.reason, message: `${message}: ${outcome.message}`, size: 0, durationMs: outcome.durationMs, retries: outcome.retries, at: new Date(), notRequested: outcome.notRequested });
  ctx.stats.recordFailure(outcome.reason);
}

/** Classifies a revisit made at `at` and stores it. */
function recordRevisit(ctx: CrawlContext, page: StoredCoherencePage, at: number, observation: RevisitObservation, text: string | null): void {
  const verdict = classifyChange(page.visit, observation);
  // One interval observed: the rate the Poisson MLE gives it (0 when unchanged). A revisit that got
  // no answer about the page (unreachable: refused, timed out, 5xx), or compared with a visit cut off
  // (visit-cut), or answered 304 to a request without validators (unconditional-304), observed no
  // interval: no rate, as for a revisit not made, rather than the rate of a page that changed.
  const days = Math.max(at - page.visitedAt, 1) / DAY_MS;
  const changeRate = verdict.evidence === 'unreachable' || verdict.evidence === 'visit-cut' || verdict.evidence === 'unconditional-304' ? null : poissonRateMle([{ days, changed: verdict.status !== 'unchanged' }]);
  const fingerprint = observation.kind === 'fetched' ? observation.fingerprint : null;
  ctx.coherence.recordRevisit(page.url, { at, fingerprint, text, verdict, changeRate });
}

/** Why robots.txt refused a URL: it disallows it, or it could not be fetched (taken as disallowing the site). */
export type RobotsExclusion = Extract<RevisitExclusion, RobotsRefusalReason>;

/** What a refusal of robots.txt (a verdict not allowing the URL, and not to be asked again later) is. */
export function robotsExclusionOf(verdict: RobotsVerdict): RobotsExclusion {
  return verdict.reason === 'robots-unavailable' ? 'robots-unavailable' : 'robots-disallowed';
}


/**
 * The crawl-log outcome of a URL not requested because its robots.txt could not be fetched for now
 * (it is asked again later): a recrawl refetch or a feed poll the crawl did not get, counted among
 * the failures, not the exclusions (`robots-unavailable` is robots.txt unreachable for good).
 */
export const ROBOTS_RETRY_OUTCOME = 'robots-retry';

/** The crawl-log outcome of a revisit not made, as the visit pass logs such a page, and its message. */
const EXCLUDED_REVISIT: Record<RevisitExclusion, { outcome: string; message: string }> = {
  'robots-disallowed': { outcome: ROBOTS_REFUSAL['robots-disallowed'].outcome, message: `coherence revisit not made: ${ROBOTS_REFUSAL['robots-disallowed'].why}` },
  'robots-unavailable': { outcome: ROBOTS_REFUSAL['robots-unavailable'].outcome, message: `coherence revisit not made: ${ROBOTS_REFUSAL['robots-unavailable'].why}` },
  'exclude-match': { outcome: 'exclude-match', message: 'coherence revisit not made: an exclude pattern of the crawl matches it' },
};

/**
 * A revisit robots.txt or an exclude pattern did not let be made. The page was not observed, so it
 * cannot be proved unchanged: it is missing, with the reason as its evidence and no change rate; the
 * crawl log says so as it does for pages the visit pass excluded (outcome `robots`,
 * `robots-unavailable` or `exclude-match`).
 */
function recordExcluded(ctx: CrawlContext, page: StoredCoherencePage, reason: RevisitExclusion): void {
  const at = Date.now();
  const { outcome, message } = EXCLUDED_REVISIT[reason];
  const verdict = classifyChange(page.visit, { kind: 'excluded', at, reason });
  runInTransaction(ctx.db, () => {
    ctx.coherence.recordRevisit(page.url, { at, fingerprint: null, text: null, verdict, changeRate: null });
    ctx.store.addLog({ url: page.url, status: null, outcome, message, size: 0, durationMs: 0, retries: 0, at: new Date(at) });
  });
  ctx.stats.recordExclusion(outcome);
}

/** How archive() stores an exchange (CrawlContext.commitArchived). */
export interface ArchiveOptions {
  /** `server-not-modified`: a 304, written as a revisit record pointing at the visit. */
  profile?: 'server-not-modified';
  /** The crawl-log message (default: `coherence revisit`). */
  message?: string;
  /** The fetch's failure (its reason the crawl-log outcome, counted among failures); default: `ok`. */
  failure?: FailureReason;
  /** Commits with the capture row, or neither stays. */
  alongside?(): void;
  /** JSON metadata records about the capture written right behind its records (a recrawled page's Web objects), before its commit. */
  objects?: CaptureObject[];
  /** The fetch's duration and retries, for the capture row and crawl-log entry. */
  timing?: FetchTiming;
  /** The page's title, for the capture row (a WACZ lists pages with it). */
  title?: string;
}

/**
 * Writes the revisit's records in commit order with its capture row and crawl-log entry: a 304
 * (`profile`) becomes a server-not-modified revisit record pointing at the first 2xx response with
 * the visit's payload digest not cut by a failed fetch (a `length` cut is the same at every fetch);
 * with none, the 304 is archived as a response of its own, as a revisit record would stand for a
 * body never archived whole (revisitPage asks for that with no profile when it sent no validators).
 * An identical payload becomes an identical-payload-digest revisit through the writer's
 * digest lookup. True when committed (CrawlContext.commitArchived).
 */
export async function archive(ctx: CrawlContext, ex: HttpExchange, page: Pick<StoredCoherencePage, 'url' | 'depth' | 'visitedAt'> & { visit: { payloadDigest: string } }, o: ArchiveOptions = {}): Promise<boolean> {
  const visit = o.profile ? wholeResponseWithDigest(ctx, page.visit.payloadDigest) : undefined;
  const writeRecords = (): Promise<CaptureWritten> => {
    if (!o.profile || !visit) return ctx.writer.writeCapture(ex, { objects: o.objects });
    return ctx.writer.writeRevisit(ex, {
      uri: visit.url, date: new Date(Date.parse(visit.fetchedAt)).toISOString(), recordId: visit.warcRecordId ?? undefined, payloadDigest: page.visit.payloadDigest,
    }, o.profile, { objects: o.objects });
  };
  return ctx.commitArchived(ex, async () => {
    const written = await writeRecords();
    checkObjectRecords(ex.url, written);
    return written;
  }, { payloadDigest: visit ? page.visit.payloadDigest : ex.payloadDigest, depth: page.depth, message: o.message ?? REVISIT_MESSAGE, failure: o.failure, alongside: o.alongside, timing: o.timing, title: o.title });
}

/**
 * The crawl's first 2xx response record holding `digest` whole or cut at the size cap (not by a
 * timeout or a closed connection: cutByFailedFetch). A 2xx: an error page's or a 304's body (often
 * none, as an empty page's) is no representation of a page.
 */
function wholeResponseWithDigest(ctx: CrawlContext, digest: string): { url: string; fetchedAt: string; warcRecordId: string | null } | undefined {
  return ctx.db.prepare("SELECT url, fetchedAt, warcRecordId FROM Capture WHERE crawlId = ? AND payloadDigest = ? AND recordType = 'response' AND status BETWEEN 200 AND 299 AND (truncated IS NULL OR truncated = 'length') ORDER BY id LIMIT 1")
    .get(ctx.crawlId, digest) as { url: string; fetchedAt: string; warcRecordId: string | null } | undefined;
}
