import { setTimeout as sleep } from 'node:timers/promises';
import { nextAllowedAt } from '../../politeness';
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
    // Fetching robots.txt was a request to this host: the page waits its politeness delay too.
    const fetched = ctx.robotsFetched.filter((f) => f.host === item.host);
    if (fetched.length) {
      ctx.robotsFetched = ctx.robotsFetched.filter((f) => f.host !== item.host);
      if (ctx.icd.politeness.enabled) {
        // The delay runs from the end of that request: archiving robots.txt meanwhile counts.
        const wait = nextAllowedAt(fetched[fetched.length - 1]!.timing, ctx.icd.politeness, verdict.crawlDelayMs) - Date.now();
        if (wait > 0) await sleep(wait);
      }
    }
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
