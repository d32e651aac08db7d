import { PROCEED, type Stage } from '../stage';

/** One HTTP exchange within the ICD's limits, to the address the DNS stage resolved; retries happen inside the fetcher. */
export const fetchStage: Stage = {
  name: 'fetch',
  async process(item, ctx) {
    const outcome = await ctx.fetcher.fetch(item.url, { ip: item.ip });
    item.durationMs = outcome.durationMs;
    item.retries = outcome.retries;
    if (!outcome.ok) {
      item.failure = { reason: outcome.reason, message: outcome.message };
      if (outcome.partial) item.exchange = outcome.partial;
      return outcome.partial ? PROCEED : { kind: 'finish', reason: outcome.reason };
    }
    item.exchange = outcome.exchange;
    return PROCEED;
  },
};
