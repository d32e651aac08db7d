import { canonicalize, hostKeyOf } from '../url';
import type { CrawlContext } from './crawl-context';

/**
 * Queues the ICD's seeds (depth 0, top priority) the first time a crawl runs; a no-op on resume.
 * A seed an exclude pattern matches is recorded as excluded (`exclude-match`), not fetched: the
 * archivist's explicit rule wins over a seed, as Heritrix's reject rules do (exclude patterns win
 * everywhere else in the scope too).
 */
export function seedFrontier(ctx: CrawlContext): void {
  const seeds = ctx.icd.seeds
    .map((seed) => canonicalize(seed, undefined, { queryHandling: ctx.icd.scope.queryHandling }))
    .filter((url): url is string => url !== null);
  const excluded = new Set(seeds.filter((url) => ctx.excludedByPattern(url)));
  ctx.frontier.add(
    ctx.crawlId,
    seeds.filter((url) => !excluded.has(url)).map((url) => ({ url, host: hostKeyOf(url), depth: 0, priority: 1, kind: 'seed' })),
  );
  if (excluded.size) ctx.frontier.exclude(ctx.crawlId, [...excluded].map((url) => ({ url, host: hostKeyOf(url), reason: 'exclude-match', depth: 0, viaUrl: null, kind: 'seed' })));
}
