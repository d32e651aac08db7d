import { createHash } from 'node:crypto';
import { adaptParentRule, afterFetch, fingerprintCapture, isDue, shouldRecrawlParent, DEFAULT_PARENT_RULE, type RevisitState } from '../../worker/coherence';
import { answerChanged, fingerprintKept, type RoundAnswer } from '../../worker/crawler/recrawl-answer';
import { poissonEvents, uniformStream } from './random';
import type { SimPage } from './site';

export interface IncrementalOutcome {
  /** Pages downloaded in recrawl rounds 1 … rounds. */
  downloads: number[];
  /** Share of pages whose archived copy is stale after each round. */
  staleAfterRound: number[];
}

/**
 * How a round judges a refetched page changed: `digest`, its payload digest differs from the last
 * one's (the engine before); `fingerprint`, as the engine does (recrawl-answer.ts answerChanged: the
 * coherence classifier on the page's fingerprint).
 */
export type ChangeJudge = 'digest' | 'fingerprint';

export interface RecrawlSimOptions {
  frMax?: number;
  judge?: ChangeJudge;
  /**
   * Share of pages that stamp every answer (a "generated at" time, a CSRF token): their payload differs
   * at every fetch, what a reader sees only when they really change. Drawn from a stream of their own,
   * so the change events are those of a site without them.
   */
  stampingShare?: number;
}

const DAY_MS = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const WORDS = 60;

/**
 * A page's answer at a fetch: its main text, one of its own for each `version` (count of true
 * changes so far), with the time it was served at when it stamps itself, and a payload digest that
 * differs at every fetch of a stamping page (its token).
 */
function answerAt(page: SimPage, version: number, day: number, stamps: boolean, fetchNo: number): RoundAnswer {
  const words = Array.from({ length: WORDS }, (_, i) => `${page.id}v${version}w${i}`).join(' ');
  const served = stamps ? ` Page generated at ${new Date(T0 + day * DAY_MS).toISOString()}.` : '';
  const mainText = `${words}.${served}`;
  const payload = stamps ? `${mainText} token ${page.id}-${fetchNo}` : mainText;
  const payloadDigest = `sha1:${createHash('sha1').update(payload).digest('hex')}`;
  const fingerprint = fingerprintCapture({ status: 200, headers: {}, payloadDigest, mainText, outLinks: [], fetchedAt: T0 + day * DAY_MS });
  return { answer: payloadDigest, fingerprint };
}

/**
 * Recrawl rounds one `intervalDays` apart over a generated site whose pages change as Poisson
 * processes. 'all' refetches every page each round; 'adaptive' uses the fr / fr_max rule and the
 * selective-incremental parent rule from worker/coherence/incremental.ts, judging change as
 * `o.judge` says; round 1 compares with the initial crawl's answer and its fingerprint (the engine
 * computes it from the stored capture).
 */
export function simulateRecrawls(pages: readonly SimPage[], policy: 'all' | 'adaptive', rounds: number, intervalDays: number, seed: number, o: RecrawlSimOptions = {}): IncrementalOutcome {
  const frMax = o.frMax ?? 4;
  const judge = o.judge ?? 'fingerprint';
  const u = uniformStream(seed);
  const changes = new Map(pages.map((p) => [p.id, poissonEvents(u, p.rate, (rounds + 1) * intervalDays)]));
  const stampingDraw = uniformStream(seed + 7919);
  const stamps = new Map(pages.map((p) => [p.id, stampingDraw() < (o.stampingShare ?? 0)]));
  const byId = new Map(pages.map((p) => [p.id, p]));
  const versionAt = (id: string, t: number) => changes.get(id)!.filter((c) => c <= t).length;
  let fetches = 0;
  const answer = (id: string, day: number) => answerAt(byId.get(id)!, versionAt(id, day), day, stamps.get(id)!, ++fetches);
  const lastFetch = new Map(pages.map((p) => [p.id, 0]));
  // What the rounds compare with: the initial crawl's answer.
  const kept = new Map<string, RoundAnswer>(pages.map((p) => [p.id, answer(p.id, 0)]));
  const state = new Map<string, RevisitState>(pages.map((p) => [p.id, { fr: frMax, lastRound: 0 }]));
  const changedSince = (id: string, from: number, to: number) => changes.get(id)!.some((t) => t > from && t <= to);
  let rule = DEFAULT_PARENT_RULE;
  const out: IncrementalOutcome = { downloads: [], staleAfterRound: [] };
  for (let round = 1; round <= rounds; round++) {
    const now = round * intervalDays;
    const fetchedChanged = new Map<string, boolean>();
    const fetch = (id: string) => {
      const last = kept.get(id)!;
      const got = answer(id, now);
      const changed = judge === 'digest' ? got.answer !== last.answer : answerChanged(last, got);
      kept.set(id, { answer: got.answer, fingerprint: fingerprintKept(last, got, changed) });
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
