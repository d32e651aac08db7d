import { PROCEED, type Stage } from '../stage';

/** Focused crawling: scores the page and each out-link against the topic (ICD focus section). */
export const analyzeStage: Stage = {
  name: 'analyze',
  shouldProcess: (item, ctx) => Boolean(ctx.focus && item.links && item.htmlText !== undefined),
  async process(item, ctx) {
    await ctx.focus!.analyse(item);
    return PROCEED;
  },
};
