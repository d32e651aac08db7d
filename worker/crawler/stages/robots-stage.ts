import { PROCEED, type Stage } from '../stage';

/**
 * Preconditions: robots.txt allows the URL. The robots cache fetches robots.txt once per host
 * (archiving the response through ctx.archiveRobots) and answers from memory after that.
 */
export const robotsStage: Stage = {
  name: 'robots',
  async process(item, ctx) {
    const verdict = await ctx.robots.check(item.url);
    if (verdict.crawlDelayMs !== undefined) ctx.frontier.setRobotsDelay(item.host, verdict.crawlDelayMs);
    if (verdict.retryAt !== undefined) {
      item.retryAt = verdict.retryAt;
      item.failure = { reason: 'robots-unavailable', message: 'robots.txt could not be fetched yet; retrying later' };
      return { kind: 'skip', reason: 'robots-retry' };
    }
    if (!verdict.allowed) {
      item.excludedReason = verdict.reason === 'robots-unavailable' ? 'robots-unavailable' : 'robots';
      return { kind: 'skip', reason: item.excludedReason };
    }
    return PROCEED;
  },
};
