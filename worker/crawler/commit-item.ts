import type { Lease } from '../frontier';
import type { CaptureSummary } from '../events/messages';
import type { CrawlContext } from './crawl-context';
import type { CrawlItem } from './stage';
import { commitInOrder } from './commit-sequencer';
import { archivedOutcome } from './crawl-stats';
import { addNote } from './stage';
import { mediaTypeOf } from '../warc';

/**
 * Acknowledges one processed URL atomically (a savepoint in a group commit, crawler/group-commit.ts):
 * its frontier state, the URLs it discovered, its capture row, crawl-log entry and Web objects. Items with WARC records commit
 * in WARC order (their ticket), so a crash leaves acknowledged captures as a prefix of the file.
 */
export async function commitItem(item: CrawlItem, lease: Lease, ctx: CrawlContext): Promise<CaptureSummary | null> {
  const { ticket } = item;
  if (ticket === undefined) return ctx.commits.run(() => writeOutcome(item, lease, ctx));
  // Its records are in the WARC file, but its URL goes back to the queue (a storage failure after
  // they were written): as after a refused commit, nothing behind it may be acknowledged, or the
  // next start's cut at this capture would take acknowledged ones with it.
  if (item.released && item.location) ctx.sequencer.refuse(ticket);
  await ctx.sequencer.turn(ticket);
  let committed: Promise<CaptureSummary | null>;
  try {
    // Queued in ticket order into the next group commit; the next ticket may queue right behind it.
    // Behind a refused capture, the URL goes back to the queue instead (commitInOrder).
    committed = commitInOrder(ctx.sequencer, ctx.commits, ticket, () => writeOutcome(item, lease, ctx), () => {
      ctx.frontier.release(lease);
      return null;
    });
  } finally {
    ctx.sequencer.settle(ticket);
  }
  const summary = await committed;
  // Durable: the capture's WARC file may take its final name once all its captures are (WarcWriter.acknowledge).
  if (summary && item.location) ctx.writer.acknowledge(item.location.filename);
  return summary;
}

/** The crawl-log note of a redirect to itself taken once more (retakesSelfRedirect). */
export const SELF_REDIRECT_RETAKEN = 'redirects to itself setting a cookie: fetched once more, with the cookie';

/**
 * Whether a page's answer is a cookie wall that sends a visitor back to the same URL: a redirect to
 * itself that sets a cookie, in a crawl that keeps cookies. The frontier fetches a URL once, so the
 * page the cookie opens would never be asked for; the commit puts such a URL back in the queue, once
 * (only when the crawl has no earlier capture of it, so a server that does so every time is fetched
 * twice, not for ever), as Heritrix retries a URL whose answer was a prerequisite of its own.
 */
export function retakesSelfRedirect(item: Pick<CrawlItem, 'url' | 'exchange' | 'links'>, cookies: boolean): boolean {
  const ex = item.exchange;
  if (!cookies || !ex || ex.status < 300 || ex.status >= 400 || !ex.headers['set-cookie']) return false;
  return (item.links ?? []).some((l) => l.kind === 'redirect' && l.url === item.url);
}

function writeOutcome(item: CrawlItem, lease: Lease, ctx: CrawlContext): CaptureSummary | null {
  const { frontier, store, stats, crawlId } = ctx;
  const now = new Date();
  if (item.released) {
    frontier.release(lease);
    return null;
  }
  if (item.plan) {
    const update = ctx.icd.focus.enabled ? ctx.icd.focus.updateFunction : 'FIRST';
    // Batch mode: queued provisionally, rescored when the page's batch closes (focus-analysis.ts).
    ctx.addLinks(item.plan.candidates, { update, provisional: ctx.focus?.batchMode ?? false });
    frontier.exclude(crawlId, item.plan.rejected);
  }
  const log = (outcome: string, status: number | null, message: string | null, size = 0) =>
    store.addLog({ url: item.url, status, outcome, message, size, durationMs: item.durationMs ?? 0, retries: item.retries ?? 0, at: now, notRequested: item.notRequested });

  if (item.exchange && item.location) {
    const ex = item.exchange;
    const size = ex.body.kind === 'memory' ? ex.body.bytes.length : ex.body.size;
    const mime = mediaTypeOf(ex.headers['content-type']);
    // Focused crawls keep the "why" of the priority the URL was fetched with (one indexed read).
    const scoreBreakdown = ctx.icd.focus.enabled ? frontier.lookup(crawlId, item.url)?.breakdown ?? null : null;
    // Asked before this capture's row is added: was the URL captured before in this crawl?
    const again = retakesSelfRedirect(item, ctx.icd.cookies) && store.latestCaptureId(item.url) === null;
    const captureId = store.addCapture({
      url: item.url, status: ex.status, mime, size, payloadDigest: ex.payloadDigest, truncated: ex.truncated, recordType: item.location.recordType,
      warcFile: item.location.filename, warcOffset: item.location.offset, warcLength: item.location.length, warcRecordId: item.location.recordId,
      depth: item.depth, score: lease.priority, scoreBreakdown, similarity: item.similarity ?? null, title: item.title ?? null, fetchedAt: ex.date, durationMs: item.durationMs ?? 0,
    });
    for (const o of item.objects ?? []) {
      // An earlier page's objects (adapted rule adopted on this page) belong to that page's capture.
      const page = o.url ? { captureId: store.latestCaptureId(o.url), url: o.url, host: new URL(o.url).host } : { captureId, url: item.url, host: item.host };
      store.addObject({ ...page, type: o.type, application: o.application, rule: o.rule, fields: o.fields });
    }
    if (again) {
      // Back to the queue, to be fetched once more with the cookie, after the host's delay (its clock is set: fetched()).
      frontier.release(lease);
      addNote(item, SELF_REDIRECT_RETAKEN);
    } else frontier.complete(lease, { status: ex.status, startedAt: ex.date.getTime(), durationMs: item.durationMs });
    stats.recordFetch(ex.status, size);
    log(archivedOutcome(item.failure?.reason, ex.truncated), ex.status, item.failure?.message ?? item.note ?? null, size);
    if (item.failure) stats.recordFailure(item.failure.reason);
    return { id: captureId, url: item.url, status: ex.status, mime, size, fetchedAt: ex.date.toISOString(), score: lease.priority, title: item.title ?? null, truncated: ex.truncated };
  }
  // A retry later and a robots.txt refusal are the robots stage's: the page was not requested, so
  // its host's clock keeps its last request (robots.txt's, when fetched for it: the stage noted it).
  if (item.retryAt !== undefined && item.failure) {
    frontier.fail(lease, item.failure.reason, { retryAt: item.retryAt, notRequested: true });
    return null;
  }
  if (item.excludedReason) {
    // The frontier keeps the same why as the crawl log: refused, or robots.txt not to be had.
    frontier.fail(lease, item.excludedReason === 'robots-unavailable' ? 'robots-unavailable' : 'robots-disallowed', { notRequested: true });
    stats.recordExclusion(item.excludedReason);
    log(item.excludedReason, null, item.excludedReason === 'robots-unavailable' ? 'robots.txt could not be fetched: treated as disallowing the site' : 'disallowed by robots.txt');
    return null;
  }
  const failure = item.failure ?? { reason: 'internal' as const, message: `pipeline ended at ${item.finishedBy?.stage ?? '?'} without a result` };
  frontier.fail(lease, failure.reason, { durationMs: item.durationMs, notRequested: item.notRequested });
  stats.recordFailure(failure.reason);
  log(failure.reason, null, failure.message);
  return null;
}
