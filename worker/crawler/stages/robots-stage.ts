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
        const { timing } = fetched[fetched.length - 1]!;
        const readyAt = nextAllowedAt(timing, ctx.icd.politeness, verdict.crawlDelayMs);
        // Short naps: a pause or stop does not wait out a long Crawl-delay (up to maxDelayMs, an hour).
        for (let wait = readyAt - Date.now(); wait > 0 && !ctx.halted(); wait = readyAt - Date.now()) await sleep(Math.min(wait, 250));
        if (readyAt > Date.now()) {
          // Halted: the URL goes back to the queue, and the host's clock keeps robots.txt's request.
          if (item.lease) ctx.frontier.fetched(item.lease, { startedAt: timing.lastStartAt, durationMs: timing.lastDurationMs });
          item.released = true;
          return { kind: 'skip', reason: 'interrupted' };
        }
      }
    }
    if (verdict.retryAt !== undefined && ctx.halted()) {
      // A pause or stop cut robots.txt's fetch off, which says nothing of the site: the URL goes back
      // to the queue instead of waiting out a retry time (15–30 s) after the resume.
      const last = fetched[fetched.length - 1];
      if (last && item.lease && ctx.icd.politeness.enabled) ctx.frontier.fetched(item.lease, { startedAt: last.timing.lastStartAt, durationMs: last.timing.lastDurationMs });
      item.released = true;
      return { kind: 'skip', reason: 'interrupted' };
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
