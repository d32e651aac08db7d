import { PROCEED, type CrawlItem, type OutLink, type Stage, type StageResult } from '../stage';
import { PLAN_SLICE_LINKS, planOutLinks, planOutLinksInSlices } from '../plan-out-links';
import { filterInSlices } from '../event-loop-slices';
import type { CrawlContext } from '../crawl-context';
import { EMBED_KINDS } from '../../frontier';

/**
 * Above this many links (a large sitemap's: up to 50,000) a page's links are planned in slices of
 * PLAN_SLICE_LINKS, the event loop having a turn between two: in one piece, 20,000 links held the
 * crawl's thread ~180 ms, and every host's politeness timer with it. Fewer are planned at once,
 * without a turn to wait for.
 */
export const SLICED_PLANNING_ABOVE = 2000;

/** Scope, traps and budgets decide which out-links become frontier candidates (pure). */
export const scheduleStage: Stage = {
  name: 'schedule',
  cpuTurn: true,
  shouldProcess: (item) => Boolean(item.links?.length),
  process(item, ctx) {
    // Links the frontier already holds would mostly be parsed, scope-checked and dropped as
    // duplicates again: most links of a site are. Unless a page's links rescore the URLs they find
    // (focused crawling with an update function other than FIRST, outside batch mode, where the
    // batch rescores), a URL's first score stands and every known link is skipped; otherwise only
    // those that left the queue, which no score can move. The WARC metadata record still lists
    // every link.
    const { focus } = ctx.icd;
    const rescoring = focus.enabled && focus.updateFunction !== 'FIRST' && !focus.batch.enabled;
    const depth = item.depth + 1;
    const mayMatter = (l: OutLink) => !l.unscored && ctx.linkMayMatter(l.url, l.kind, depth, rescoring);
    // Without rescoring every link left is unknown (or refused, or queued deeper, or a page fetched
    // deeper whose links the depth limit cut, or one stored as a requisite a page link makes a page,
    // for the scope to check again): no need to ask again which ones the frontier holds. A refused
    // one goes through the scope, as does one found nearer, whose nearer way the scope counts the
    // hops of, and a page link to a URL stored as a requisite: only one the scope takes makes it a page.
    const known = rescoring
      ? (url: string, kind: string) =>
          ctx.frontier.knows(ctx.crawlId, url) && !ctx.frontier.refused(ctx.crawlId, url) && !ctx.frontier.queuedDeeper(ctx.crawlId, url, depth) &&
          !ctx.frontier.linksCutDeeper(ctx.crawlId, url, depth) && !(ctx.frontier.storedAsEmbed(ctx.crawlId, url) && !EMBED_KINDS.has(kind))
      : undefined;
    // The page with the links that may matter. A redirect answered by a page requisite (or by its
    // redirects) leads to the requisite itself; a requisite's requisites count its embed hops on.
    const withLinks = (links: OutLink[]): CrawlItem => {
      item.requisiteRedirects = ctx.requisiteRedirectsOf(item.lease, links);
      item.embedHops = ctx.embedHopsOf(item.lease);
      return { ...item, links };
    };
    if (item.links!.length <= SLICED_PLANNING_ABOVE) {
      item.plan = planOutLinks(withLinks(item.links!.filter(mayMatter)), ctx.scopeInput(), ctx.traps, known);
      return leavesItsHostWaiting(item, ctx) ? commitLinksAhead(item, ctx, { all: true }).then(() => PROCEED) : PROCEED;
    }
    // A large sitemap's: slice by slice, the crawl's timers running between two; then most of its
    // URLs queued, before the page holds its place in WARC order (commitLinksAhead).
    return (async (): Promise<StageResult> => {
      const links = await filterInSlices(item.links!, PLAN_SLICE_LINKS, mayMatter);
      item.plan = await planOutLinksInSlices(withLinks(links), ctx.scopeInput(), ctx.traps, known);
      await commitLinksAhead(item, ctx);
      return PROCEED;
    })();
  },
};

/**
 * Above this many new or refused URLs (a large sitemap's: up to 50,000), a page's links go into the
 * frontier ahead of its own commit, LINKS_COMMITTED_AT_ONCE to a group commit, each awaited before
 * the next, so the crawl's thread and SQLite's write lock are free between them: in one piece, the
 * 20,000 URLs of a sitemap held both for ~220 ms, and every host's politeness timer with them.
 * Done here, before the page takes its place in WARC order (the warc stage's ticket): from there,
 * every page fetched meanwhile would wait for it to commit, holding its fetch slot, and the crawl
 * stopped fetching for as long (~0.8 s for 20,000 URLs).
 */
export const LINKS_COMMITTED_AHEAD_ABOVE = 2000;
export const LINKS_COMMITTED_AT_ONCE = 1000;

/**
 * Whether a polite crawl's page links to its own host while that host has nothing else queued (a
 * seed's page, most often): its next URL would otherwise reach the frontier only with the page's
 * commit, after the page's records are compressed and every page before it in WARC order is
 * committed, while its delay is already running. At a crawl's start, with the seeds' pages all
 * fetched at once, the last hosts' next URLs came 100–270 ms after their delay was over.
 */
function leavesItsHostWaiting(item: CrawlItem, ctx: CrawlContext): boolean {
  const host = item.lease?.host;
  if (!host || !ctx.icd.politeness.enabled || ctx.focus?.batchMode) return false;
  // The lookup first: most pages' hosts have URLs queued, and the scan of the plan is then skipped.
  return ctx.frontier.hostQueued(ctx.crawlId, host) === 0 && item.plan!.candidates.some((c) => c.host === host);
}

/**
 * Commits a large plan's URLs (item.plan, taken from it) in slices before the page's own commit,
 * which then adds what is left; with `all`, every candidate of any plan (leavesItsHostWaiting).
 * Safe to see cut short: a crash or a refused commit leaves URLs queued or refused whose page is not
 * (yet) acknowledged; it is fetched again, and its links, known by then, are not planned again. A focused crawl's batch mode queues a page's links provisionally, with its
 * batch (focus-analysis.ts): those stay in the page's commit.
 */
export async function commitLinksAhead(item: CrawlItem, ctx: CrawlContext, o: { all?: boolean } = {}): Promise<void> {
  const plan = item.plan;
  if (!plan || (!o.all && plan.candidates.length + plan.rejected.length <= LINKS_COMMITTED_AHEAD_ABOVE)) return;
  if (ctx.focus?.batchMode) return;
  const update = ctx.icd.focus.enabled ? ctx.icd.focus.updateFunction : 'FIRST';
  // `all`: every candidate now, the refused ones with the page; otherwise the page keeps what is left of each.
  while (plan.candidates.length > (o.all ? 0 : LINKS_COMMITTED_AT_ONCE)) {
    const slice = plan.candidates.splice(0, LINKS_COMMITTED_AT_ONCE);
    await ctx.commits.run(() => ctx.addLinks(slice, { update, provisional: false }));
  }
  while (plan.rejected.length > LINKS_COMMITTED_AT_ONCE) {
    const slice = plan.rejected.splice(0, LINKS_COMMITTED_AT_ONCE);
    await ctx.commits.run(() => ctx.frontier.exclude(ctx.crawlId, slice));
  }
}
