import type { WaitingMatches } from '../../../worker/frontier/waiting-matches';

/**
 * What a test of a pattern found, in words: how many waiting URLs match (at least that many when
 * more wait than the server looks at, MAX_TESTED_URLS: then which it looked at, spread over the
 * hosts), and whether all of them or the first are listed.
 */
export function testSummary(t: WaitingMatches): string {
  const n = t.matching.toLocaleString('en-US');
  const match = `waiting URL${t.matching === 1 ? '' : 's'} match${t.matching === 1 ? 'es' : ''}`;
  if (!t.partial) return t.matching === 0 ? 'No waiting URL matches.' : t.matching > t.examples.length ? `${n} ${match}; the first ${t.examples.length}:` : `${n} ${match}:`;
  const looked = `${t.tested.toLocaleString('en-US')} of the ${t.waiting.toLocaleString('en-US')} waiting URLs looked at: ${sampleWords(t)}`;
  if (t.matching === 0) return `None matches of ${looked}.`;
  const count = `At least ${n} ${match} (of ${looked})`;
  return t.matching > t.examples.length ? `${count}; the first ${t.examples.length}:` : `${count}:`;
}

/** Which queued URLs a partial test looked at (waiting-matches.ts hostShares). */
function sampleWords(t: WaitingMatches): string {
  const hosts = t.hosts.toLocaleString('en-US');
  if (t.hosts === 0) return 'the retrying ones';
  if (t.moreHostsAfter !== null) return `the next ones in the queues of ${t.hostsTested.toLocaleString('en-US')} hosts spread over the first ${hosts} with URLs queued, in name order up to ${t.moreHostsAfter}, shared between them; the hosts after it were left out`;
  if (t.hostsTested < t.hosts) return `the next ones in the queues of ${t.hostsTested.toLocaleString('en-US')} hosts spread over the ${hosts} with URLs queued, shared between them`;
  return t.hosts === 1 ? 'the next ones in the host\'s queue' : `the next ones in each of the ${hosts} hosts' queues, shared between them`;
}
