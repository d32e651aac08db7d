import { addNote, PROCEED, type OutLink, type Stage } from '../stage';
import type { AahVerdict } from '../aah-runner';

/**
 * Application-Aware Helper: on pages of a recognised web application, keep only the navigation
 * links its knowledge base says are useful (do-not-follow links are excluded with reason 'aah';
 * page requisites are never touched) and collect the Web objects it extracts.
 */
export const aahStage: Stage = {
  name: 'aah',
  shouldProcess: (item, ctx) => Boolean(ctx.aah && item.html && item.links),
  process(item, ctx) {
    const { verdict, skipped } = ctx.aah!.analyse(item);
    if (skipped) addNote(item, skipped);
    if (!verdict) return PROCEED;
    item.objects = verdict.objects;
    applyNavigationVerdict(item.links!, verdict);
    return PROCEED;
  },
};

/** Marks a page's navigation links as the AAH decided: excluded (`aah`) or followed with a bonus. Also used by recrawls. */
export function applyNavigationVerdict(links: OutLink[], verdict: AahVerdict): void {
  const follow = new Map(verdict.follow.map((f) => [f.url, f.bonus]));
  const doNotFollow = new Set(verdict.doNotFollow);
  for (const link of links) {
    if (link.kind !== 'navigation') continue;
    if (doNotFollow.has(link.url)) link.excludedReason = 'aah';
    else if (verdict.restrictNavigation && !follow.has(link.url)) link.excludedReason = 'aah';
    else if (follow.has(link.url)) link.aahBonus = follow.get(link.url);
  }
}
