import { PROCEED, type Stage } from '../stage';

/**
 * Fetches the URL: resolves the host first (hosts on one IP share that IP's politeness clock),
 * then one HTTP exchange within the ICD's limits; retries happen inside the fetcher.
 */
export const fetchStage: Stage = {
  name: 'fetch',
  async process(item, ctx) {
    const address = await ctx.resolveHost(item.url);
    if ('error' in address) {
      item.failure = { reason: 'dns', message: address.error };
      return { kind: 'finish', reason: 'dns' };
    }
    if (!ctx.frontier.setHostKey(item.host, address.ip)) {
      // Another host on this IP is being fetched right now: give the URL back, it comes round again.
      item.released = true;
      return { kind: 'skip', reason: 'ip-busy' };
    }
    const outcome = await ctx.fetcher.fetch(item.url, { ip: address.ip });
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
