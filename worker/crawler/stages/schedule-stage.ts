import { PROCEED, type Stage } from '../stage';
import { planOutLinks } from '../plan-out-links';

/** Scope, traps and budgets decide which out-links become frontier candidates (pure). */
export const scheduleStage: Stage = {
  name: 'schedule',
  shouldProcess: (item) => Boolean(item.links?.length),
  process(item, ctx) {
    // Without focused crawling a URL's first score stands (update function FIRST), so links the
    // frontier already holds would only be parsed, scope-checked and dropped as duplicates again:
    // most links of a site are. Skipped here; the WARC metadata record still lists every link.
    const links = ctx.icd.focus.enabled ? item.links : item.links!.filter((l) => !ctx.frontier.knows(ctx.crawlId, l.url));
    item.plan = planOutLinks({ ...item, links }, ctx.scopeInput(), ctx.traps);
    return PROCEED;
  },
};
