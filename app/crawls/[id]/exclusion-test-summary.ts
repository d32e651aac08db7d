import type { WaitingMatches } from '../../../worker/frontier/frontier-sql';

/**
 * What a test of a pattern found, in words: how many waiting URLs match (at least that many when
 * more wait than the server looks at, MAX_TESTED_URLS), and whether all of them or the first are listed.
 */
export function testSummary(t: WaitingMatches): string {
  const n = t.matching.toLocaleString('en-US');
  const tested = t.tested.toLocaleString('en-US');
  const match = `waiting URL${t.matching === 1 ? '' : 's'} match${t.matching === 1 ? 'es' : ''}`;
  if (t.matching === 0) return t.partial ? `None of the first ${tested} waiting URLs looked at matches; more wait.` : 'No waiting URL matches.';
  const count = t.partial ? `At least ${n} ${match} (of the first ${tested} looked at; more wait)` : `${n} ${match}`;
  return t.matching > t.examples.length ? `${count}; the first ${t.examples.length}:` : `${count}:`;
}
