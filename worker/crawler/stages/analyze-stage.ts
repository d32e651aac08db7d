import { PROCEED, type Stage } from '../stage';

/** Focused crawling: scores the page and each out-link against the topic (ICD focus section). */
export const analyzeStage: Stage = {
  name: 'analyze',
  shouldProcess: (item, ctx) => Boolean(ctx.focus && item.links && item.htmlText !== undefined),
  async process(item, ctx) {
    // Only links that may still change the frontier are scored (see the schedule stage); in batch
    // mode too, since the batch rescores queued URLs from these analyses.
    const rescoring = ctx.icd.focus.updateFunction !== 'FIRST';
    await ctx.focus!.analyse(item, (url, kind) => ctx.linkMayMatter(url, kind, item.depth + 1, rescoring));
    return PROCEED;
  },
};
