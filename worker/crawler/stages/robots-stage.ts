import { nextAllowedAsOf } from '../../politeness';
import { robotsFailureMessage } from '../../robots';
import { PROCEED, type Stage, type StageResult } from '../stage';
import { waitUntil } from '../wait-until';

/**
 * Preconditions: robots.txt allows the URL. The robots cache fetches robots.txt once per host and
 * crawl while its answer is fresh (archiving the response through ctx.archiveAuxiliary), answering
 * from memory after that, and in the crawl's later runs from the answer kept with its state.
 */
export const robotsStage: Stage = {
  name: 'robots',
  async process(item, ctx) {
    const { verdict, fetched } = await ctx.askRobots(item.url, item.host);
    // When the page is not requested after all, robots.txt's request (made in its turn, if one was)
    // is the host's last: its clock counts that one, and the page's lease adds none (commit-item.ts).
    const robotsRequestOnly = (): void => {
      if (fetched && item.lease && ctx.icd.politeness.enabled) ctx.frontier.fetched(item.lease, { startedAt: fetched.lastStartAt, durationMs: fetched.lastDurationMs });
    };
    // No connection could be made for robots.txt (or none was ever answered): nor would one be for
    // the page, which is not requested (RFC 9309: no robots.txt, no crawl) and fails with that reason.
    if (verdict.failure) {
      robotsRequestOnly();
      // The host's clock counts robots.txt's request (above); the page's entry does not: that request has
      // a crawl-log entry of its own (the cache's onUnanswered), and its time and retries here would count twice.
      item.retries = 0;
      item.durationMs = 0;
      const { reason } = verdict.failure;
      item.failure = { reason, message: `${robotsFailureMessage(verdict.failure)}; the URL was not requested` };
      item.notRequested = true;
      return { kind: 'finish', reason };
    }
    // Halted: the URL goes back to the queue, and the host's clock keeps robots.txt's request.
    const release = (): StageResult => {
      robotsRequestOnly();
      item.released = true;
      return { kind: 'skip', reason: 'interrupted' };
    };
    // A pause or stop cut robots.txt's fetch off, which says nothing of the site: the URL goes back
    // to the queue instead of waiting out a retry time (15–30 s) after the resume.
    if (verdict.retryAt !== undefined && ctx.halted()) return release();
    // Neither a URL to ask about again later nor one refused is requested: no delay to wait for them.
    if (verdict.retryAt !== undefined) {
      robotsRequestOnly();
      item.retryAt = verdict.retryAt;
      item.failure = { reason: 'robots-unavailable', message: 'robots.txt could not be fetched yet; retrying later' };
      return { kind: 'skip', reason: 'robots-retry' };
    }
    if (!verdict.allowed) {
      robotsRequestOnly();
      item.excludedReason = verdict.reason === 'robots-unavailable' ? 'robots-unavailable' : 'robots';
      return { kind: 'skip', reason: item.excludedReason };
    }
    // Fetching robots.txt was a request to this host: the page waits its politeness delay too,
    // from the end of that request (archiving robots.txt meanwhile counts).
    if (fetched && ctx.icd.politeness.enabled) {
      const readyAt = () => nextAllowedAsOf(fetched, ctx.icd.politeness, verdict.crawlDelayMs, Date.now());
      if (!(await waitUntil(readyAt, ctx.halted))) return release();
    }
    return PROCEED;
  },
};
