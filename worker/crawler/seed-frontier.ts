import { canonicalize, hostKeyOf } from '../url';
import type { CrawlContext } from './crawl-context';

/** Queues the ICD's seeds (depth 0, top priority) the first time a crawl runs; a no-op on resume. */
export function seedFrontier(ctx: CrawlContext): void {
  const seeds = ctx.icd.seeds
    .map((seed) => canonicalize(seed, undefined, { queryHandling: ctx.icd.scope.queryHandling }))
    .filter((url): url is string => url !== null);
  ctx.frontier.add(
    ctx.crawlId,
    seeds.map((url) => ({ url, host: hostKeyOf(url), depth: 0, priority: 1, kind: 'seed' })),
  );
}
