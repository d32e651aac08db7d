import type { CrawlFrontierConfig, UpdateFunction } from '../frontier';
import type { Icd } from '../icd/schema';
import { deepestTaken } from '../url';

/**
 * How the frontier holds a crawl of `icd`: the engine opens it so for each run, and the worker
 * so for a crawl no engine runs (to settle the URLs posted to it when it ends, crawl-end.ts).
 */
export function crawlFrontierConfig(icd: Icd): CrawlFrontierConfig {
  return {
    // The crawl's page budget is enforced on fetches by the engine; admission gets headroom so
    // a focused crawl can still choose among many queued URLs.
    maxPages: Math.min(icd.scope.maxPages * 100, 100_000_000),
    maxPagesPerHost: icd.scope.maxPagesPerHost,
    // Requisites may lie a few embed hops past the page depth limit, and the redirects they answer
    // a hop further each (url/scope.ts decides which; this is only the frontier's backstop).
    maxDepth: deepestTaken(icd.scope.maxDepth),
    politeness: { ...icd.politeness, enabled: icd.politeness.enabled },
    // Found-again links (an update function other than FIRST) or closed batches rescore queued URLs.
    rescoring: icd.focus.enabled && (icd.focus.updateFunction !== 'FIRST' || icd.focus.batch.enabled),
  };
}

/** How a new score of a queued URL of the crawl combines with its old ones (FIRST unless focused). */
export function crawlUpdateFunction(icd: Icd): UpdateFunction {
  return icd.focus.enabled ? icd.focus.updateFunction : 'FIRST';
}
