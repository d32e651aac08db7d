import { gotNoAnswer } from '../../fetch';
import { addNote, PROCEED, type Stage } from '../stage';

/** One HTTP exchange within the ICD's limits, to the address the DNS stage resolved; retries happen inside the fetcher. */
export const fetchStage: Stage = {
  name: 'fetch',
  async process(item, ctx) {
    const lease = item.lease;
    const outcome = await ctx.fetcher.fetch(item.url, { ip: item.ip, ...(lease ? { foundOn: { via: lease.viaUrl, kind: lease.kind } } : {}) });
    item.durationMs = outcome.durationMs;
    item.retries = outcome.retries;
    // The request is over: the host's next URL may be fetched (after its delay) while this one is processed.
    const ex = outcome.ok ? outcome.exchange : outcome.partial;
    // Without a response (a reset, a timeout) the request ended now: its delay runs from here. The
    // lease's time would be earlier by robots.txt and its delay, or by a batch's earlier URLs.
    const startedAt = ex ? ex.date.getTime() : Date.now() - outcome.durationMs;
    if (item.lease) ctx.frontier.fetched(item.lease, { startedAt, durationMs: outcome.durationMs });
    if (!outcome.ok && outcome.reason === 'interrupted') {
      item.released = true;
      return { kind: 'skip', reason: 'interrupted' };
    }
    if (!outcome.ok) {
      item.failure = { reason: outcome.reason, message: outcome.message };
      item.noAnswer = gotNoAnswer(outcome);
      if (outcome.partial) item.exchange = outcome.partial;
      return outcome.partial ? PROCEED : { kind: 'finish', reason: outcome.reason };
    }
    item.exchange = outcome.exchange;
    if (outcome.note) addNote(item, outcome.note);
    return PROCEED;
  },
};
