import { PROCEED, type Stage } from '../stage';

/**
 * Resolves the host before anything is fetched from it (robots.txt included): the politeness
 * clock is the IP's, so host names on one address wait for each other from the first request.
 * An address of the crawler's own network the crawl may not reach (fetch/address-guard.ts) ends
 * the URL here, before robots.txt is asked for: it is refused for its address, not its robots.txt.
 */
export const dnsStage: Stage = {
  name: 'dns',
  async process(item, ctx) {
    const address = await ctx.resolveHost(item.url);
    if ('error' in address) {
      // Not a host giving no answer (its back-off): a name that does not resolve fails its URLs at
      // once, as Heritrix and Browsertrix fail them; backed off, a dead third-party name three
      // requisites use would hold the crawl open for limits.hostGiveUpMs.
      item.failure = { reason: 'dns', message: address.error };
      return { kind: 'finish', reason: 'dns' };
    }
    const refusal = await ctx.addressGuard(address.ip);
    if (refusal) {
      item.failure = { reason: 'private-address', message: refusal };
      return { kind: 'finish', reason: 'private-address' };
    }
    if (!ctx.frontier.setHostKey(item.host, address.ip)) {
      // Another host on this IP is being fetched right now: give the URL back, it comes round again.
      item.released = true;
      return { kind: 'skip', reason: 'ip-busy' };
    }
    item.ip = address.ip;
    return PROCEED;
  },
};
