import { PROCEED, type Stage } from '../stage';
import { planOutLinks } from '../plan-out-links';

/** Scope, traps and budgets decide which out-links become frontier candidates (pure). */
export const scheduleStage: Stage = {
  name: 'schedule',
  shouldProcess: (item) => Boolean(item.links?.length),
  process(item, ctx) {
    item.plan = planOutLinks(item, ctx.scopeInput(), ctx.traps);
    return PROCEED;
  },
};
