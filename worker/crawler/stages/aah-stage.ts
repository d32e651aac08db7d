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
    applyNavigationVerdict(item.links!, verdict, ctx.icd.scope.maxOutLinksPerPage);
    return PROCEED;
  },
};

/**
 * Marks a page's navigation links as the AAH decided: excluded (`aah`) or followed with a bonus,
 * and adds the URLs its follow rules select that the link extraction did not find (a rule may read
 * any attribute, `//div[@class='topic']/@data-href`), up to `maxLinks` links in all. Also used by
 * recrawls.
 */
export function applyNavigationVerdict(links: OutLink[], verdict: AahVerdict, maxLinks: number): void {
  const follow = new Map(verdict.follow.map((f) => [f.url, f.bonus]));
  const doNotFollow = new Set(verdict.doNotFollow);
  const found = new Set<string>();
  for (const link of links) {
    found.add(link.url);
    if (link.kind !== 'navigation') continue;
    if (doNotFollow.has(link.url)) link.excludedReason = 'aah';
    else if (verdict.restrictNavigation && !follow.has(link.url)) link.excludedReason = 'aah';
    else if (follow.has(link.url)) link.aahBonus = follow.get(link.url);
  }
  for (const [url, bonus] of follow) {
    if (links.length >= maxLinks) break;
    if (!found.has(url)) links.push({ url, kind: 'navigation', anchorText: '', context: '', source: 'aah', aahBonus: bonus });
  }
}
