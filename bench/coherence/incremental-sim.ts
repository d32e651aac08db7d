import { adaptParentRule, afterFetch, isDue, shouldRecrawlParent, DEFAULT_PARENT_RULE, type RevisitState } from '../../worker/coherence';
import { poissonEvents, uniformStream } from './random';
import type { SimPage } from './site';

export interface IncrementalOutcome {
  /** Pages downloaded in recrawl rounds 1 … rounds. */
  downloads: number[];
  /** Share of pages whose archived copy is stale after each round. */
  staleAfterRound: number[];
}

/**
 * Recrawl rounds one `intervalDays` apart over a generated site whose pages change as Poisson
 * processes. 'all' refetches every page each round; 'adaptive' uses the fr / fr_max rule and the
 * selective-incremental parent rule from worker/coherence/incremental.ts.
 */
export function simulateRecrawls(pages: readonly SimPage[], policy: 'all' | 'adaptive', rounds: number, intervalDays: number, seed: number, frMax = 4): IncrementalOutcome {
  const u = uniformStream(seed);
  const changes = new Map(pages.map((p) => [p.id, poissonEvents(u, p.rate, (rounds + 1) * intervalDays)]));
  const lastFetch = new Map(pages.map((p) => [p.id, 0]));
  const state = new Map<string, RevisitState>(pages.map((p) => [p.id, { fr: frMax, lastRound: 0 }]));
  const changedSince = (id: string, from: number, to: number) => changes.get(id)!.some((t) => t > from && t <= to);
  let rule = DEFAULT_PARENT_RULE;
  const out: IncrementalOutcome = { downloads: [], staleAfterRound: [] };
  for (let round = 1; round <= rounds; round++) {
    const now = round * intervalDays;
    const fetchedChanged = new Map<string, boolean>();
    const fetch = (id: string) => {
      const changed = changedSince(id, lastFetch.get(id)!, now);
      lastFetch.set(id, now);
      state.set(id, afterFetch(state.get(id)!, round, changed, { frMax }));
      fetchedChanged.set(id, changed);
    };
    for (const p of pages) if (policy === 'all' || isDue(state.get(p.id)!, round, { frMax })) fetch(p.id);
    if (policy === 'adaptive') {
      const kids = new Map<string, { changed: number; total: number }>();
      for (const p of pages) {
        if (!p.parent || !fetchedChanged.has(p.id)) continue;
        const k = kids.get(p.parent) ?? { changed: 0, total: 0 };
        k.total++;
        if (fetchedChanged.get(p.id)) k.changed++;
        kids.set(p.parent, k);
      }
      for (const [parent, k] of kids) {
        if (fetchedChanged.has(parent) || !shouldRecrawlParent(rule, k.changed, k.total)) continue;
        fetch(parent);
        rule = adaptParentRule(rule, fetchedChanged.get(parent)!);
      }
    }
    out.downloads.push(fetchedChanged.size);
    out.staleAfterRound.push(pages.filter((p) => changedSince(p.id, lastFetch.get(p.id)!, now)).length / pages.length);
  }
  return out;
}
