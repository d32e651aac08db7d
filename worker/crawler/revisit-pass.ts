import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpExchange } from '../capture';
import { decodeContentEncoding, releaseBody } from '../fetch';
import { extractFromResponse } from '../extract';
import {
  buildCertificate, classifyChange, poissonRateMle, revisitOrder, summarise, validatorsTrusted,
  type ClassifiedPage, type PageStatus, type RevisitObservation,
} from '../coherence';
import type { CrawlContext } from './crawl-context';
import { fingerprintHtml } from './page-fingerprint';
import { outcomeOf, politeFetch } from './polite-fetch';
import type { StoredCoherencePage } from './coherence-store';

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
 * every captured HTML page is fetched again (conditional GET when its validators are trusted) in
 * pyramid order — last visited, first revisited — so each [visit, revisit] interval contains the
 * reference time. Each page is classified, the revisit archived (a revisit record for a 304 or an
 * identical payload), and at the end the certificate is written beside the WARC files.
 * Returns false when halted before the end.
 */
export async function runRevisitPass(ctx: CrawlContext, warcDir: string, o: RevisitPassOptions): Promise<boolean> {
  const now = o.now ?? Date.now;
  const store = ctx.coherence;
  if (store.isFinished()) return true;
  const referenceAt = store.startRun(now());
  const pages = store.pages();
  const pending = pages.filter((p) => p.revisitedAt === null);
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const { order } = revisitOrder(pending.map((p) => ({ id: p.url, visitedAt: p.visitedAt, rate: null })), referenceAt, 1 / DAY_MS);
  let done = pages.length - pending.length;
  for (const url of order) {
    if (o.halted()) return false;
    // Each revisit waits its host's turn on the worker's politeness clocks (polite-fetch.ts).
    await revisitPage(ctx, byUrl.get(url)!, o.halted);
    done++;
    o.onCoherence?.({ phase: 'revisit', revisited: done, pages: pages.length, referenceTime: new Date(referenceAt).toISOString() });
  }
  const classified = classifiedPages(store.pages());
  const summary = summarise(classified, referenceAt);
  const certificate = buildCertificate({ id: ctx.crawlId, name: ctx.icd.name }, classified, referenceAt, now());
  writeFileSync(join(warcDir, CERTIFICATE_FILE), JSON.stringify(certificate, null, 2) + '\n');
  store.finishRun(summary);
  o.onCoherence?.({ phase: 'done', summary });
  return true;
}

function classifiedPages(pages: StoredCoherencePage[]): ClassifiedPage[] {
  return pages.filter((p) => p.status && p.revisitedAt !== null).map((p) => ({
    url: p.url, status: p.status as PageStatus, evidence: p.evidence ?? '', payloadDigest: p.visit.payloadDigest, textDigest: p.visit.textDigest,
    visitedAt: p.visitedAt, revisitedAt: p.revisitedAt!, rate: p.changeRate ?? 0,
  }));
}

/** Fetches, archives, classifies and stores one revisit. */
async function revisitPage(ctx: CrawlContext, page: StoredCoherencePage, halted: () => boolean): Promise<void> {
  const conditional = validatorsTrusted(page.visit) ? { etag: page.visit.etag ?? undefined, lastModified: page.visit.lastModified ?? undefined } : undefined;
  const outcome = outcomeOf(await politeFetch(ctx, page.url, { conditional, halted }));
  // Cut short by a pause or stop: not an observation; the page is revisited when the crawl resumes.
  if (outcome && !outcome.ok && outcome.reason === 'interrupted') return;
  let observation: RevisitObservation;
  let text: string | null = null;
  const at = outcome?.ok ? outcome.exchange.date.getTime() : Date.now();
  if (!outcome || !outcome.ok) {
    if (outcome && !outcome.ok && outcome.partial) await archive(ctx, outcome.partial, page, null);
    observation = { kind: 'failed', at, status: null, reason: outcome ? outcome.reason : 'dns' };
  } else {
    const ex = outcome.exchange;
    try {
      if (ex.status === 304) {
        await archive(ctx, ex, page, 'server-not-modified');
        observation = { kind: 'not-modified', at };
      } else {
        await archive(ctx, ex, page, null);
        if (ex.status >= 200 && ex.status < 300) {
          const body = await decodeContentEncoding(ex.body, ex.headers['content-encoding'], ctx.icd.limits.maxDecodedBytes);
          const extraction = extractFromResponse({ url: page.url, status: ex.status, headers: ex.headers, body, maxDecodedBytes: ctx.icd.limits.maxDecodedBytes, queryHandling: ctx.icd.scope.queryHandling, text: false });
          const fp = fingerprintHtml(ex, body, extraction.links);
          text = fp.text;
          observation = { kind: 'fetched', fingerprint: fp.fingerprint };
        } else {
          observation = { kind: 'failed', at, status: ex.status, reason: `http-${ex.status}` };
        }
      }
    } finally {
      await releaseBody(ex.body).catch(() => undefined);
    }
  }
  const verdict = classifyChange(page.visit, observation);
  // One interval observed: the rate the Poisson MLE gives it (0 when unchanged).
  const days = Math.max(at - page.visitedAt, 1) / DAY_MS;
  const changeRate = poissonRateMle([{ days, changed: verdict.status !== 'unchanged' }]);
  const fingerprint = observation.kind === 'fetched' ? observation.fingerprint : null;
  ctx.coherence.recordRevisit(page.url, { at, fingerprint, text, verdict, changeRate });
}

/**
 * Writes the revisit's records in commit order with its capture row and crawl-log entry: a 304
 * becomes a server-not-modified revisit record pointing at the visit; an identical payload becomes
 * an identical-payload-digest revisit through the writer's digest lookup.
 */
export async function archive(ctx: CrawlContext, ex: HttpExchange, page: Pick<StoredCoherencePage, 'url' | 'depth' | 'visitedAt'> & { visit: { payloadDigest: string } }, profile: 'server-not-modified' | null, message = 'coherence revisit'): Promise<void> {
  await ctx.commitArchived(ex, async () => {
    if (!profile) return ctx.writer.writeCapture(ex);
    const visit = ctx.db.prepare("SELECT url, fetchedAt, warcRecordId FROM Capture WHERE crawlId = ? AND payloadDigest = ? AND recordType = 'response' ORDER BY id LIMIT 1")
      .get(ctx.crawlId, page.visit.payloadDigest) as { url: string; fetchedAt: string; warcRecordId: string | null } | undefined;
    return ctx.writer.writeRevisit(ex, {
      uri: visit?.url ?? page.url, date: new Date(visit ? Date.parse(visit.fetchedAt) : page.visitedAt).toISOString(), recordId: visit?.warcRecordId ?? undefined, payloadDigest: page.visit.payloadDigest,
    }, profile);
  }, { payloadDigest: profile ? page.visit.payloadDigest : ex.payloadDigest, depth: page.depth, message });
}
