import { SimulatedClock } from '../../worker/politeness/clock';
import { nextAllowedAt, type DelayConfig, type KeyTiming } from '../../worker/politeness/politeness-delay';
import {
  blur, organPipesOrder, poissonRateMle, predictRate, scheduleFromVisitOrder, trainRateClassifier, visitRevisitPyramid,
  type RatedPage, type VisitInterval,
} from '../../worker/coherence';
import { poissonEvents, uniformStream } from './random';
import { traversalOrder, type SimPage } from './site';

const DAY_MS = 86_400_000;

export const POLITENESS: DelayConfig = { minDelayMs: 1000, maxDelayMs: 30_000, delayFactor: 2 };

/** The visit and revisit order a strategy produces. */
export interface CapturePlan {
  visits: string[];
  revisits: string[];
}

export interface CaptureOutcome {
  incoherence: number;
  blur: number;
  durationMinutes: number;
}

/**
 * Runs a capture plan against one host on a simulated clock, paced by the real politeness rule
 * (nextAllowedAt: max(min delay, delayFactor × response time) after each response), with
 * response times drawn from the seeded stream. A page is incoherent when one of its true change
 * events falls between its visit and its revisit; blur uses the true rates and the reference time
 * half-way between the last visit and the first revisit.
 */
export async function runCapture(pages: readonly SimPage[], plan: CapturePlan, changes: Map<string, number[]>, seed: number, politeness: DelayConfig = POLITENESS): Promise<CaptureOutcome> {
  const clock = new SimulatedClock(0);
  const u = uniformStream(seed);
  let timing: KeyTiming | null = null;
  const visitedAt = new Map<string, number>();
  const revisitedAt = new Map<string, number>();
  let lastVisit = 0;
  let firstRevisit = 0;
  const fetchAll = async (ids: string[], into: Map<string, number>) => {
    for (const id of ids) {
      await clock.advanceTo(Math.max(clock.now(), nextAllowedAt(timing, politeness)));
      const durationMs = 80 + 400 * u() * u();
      into.set(id, clock.now());
      timing = { lastStartAt: clock.now(), lastDurationMs: durationMs };
      await clock.advance(durationMs);
    }
  };
  await fetchAll(plan.visits, visitedAt);
  lastVisit = visitedAt.get(plan.visits.at(-1)!)!;
  await fetchAll(plan.revisits, revisitedAt);
  firstRevisit = revisitedAt.get(plan.revisits[0]!)!;
  const reference = (lastVisit + firstRevisit) / 2;
  let incoherent = 0;
  for (const p of pages) {
    const from = visitedAt.get(p.id)!;
    const to = revisitedAt.get(p.id)!;
    if ((changes.get(p.id) ?? []).some((t) => t > from && t < to)) incoherent++;
  }
  return {
    incoherence: incoherent / pages.length,
    blur: blur(pages.map((p) => ({ rate: p.rate, visitedAt: visitedAt.get(p.id)! })), reference),
    durationMinutes: clock.now() / 60_000,
  };
}

/** True change times (ms) of every page over the horizon. */
export function changeEvents(pages: readonly SimPage[], horizonMs: number, seed: number): Map<string, number[]> {
  const u = uniformStream(seed);
  return new Map(pages.map((p) => [p.id, poissonEvents(u, p.rate / DAY_MS, horizonMs)]));
}

/**
 * Rates as a crawler would know them before this capture: pages seen in earlier crawls (a
 * `share` of the site, visited hourly for two days) get the Poisson MLE of what those visits
 * detected; the others get the URL classifier's prediction, trained on the former.
 */
export function predictedRates(pages: readonly SimPage[], seed: number, share = 0.3): Map<string, number> {
  const u = uniformStream(seed);
  const known = new Map<string, number>();
  for (const p of pages) {
    if (u() >= share) continue;
    const intervals: VisitInterval[] = Array.from({ length: 48 }, () => ({ days: 1 / 24, changed: u() > Math.exp(-p.rate / 24) }));
    known.set(p.id, poissonRateMle(intervals));
  }
  const model = trainRateClassifier(pages.filter((p) => known.has(p.id)).map((p) => ({ url: p.url, mime: 'text/html', depth: p.depth, rate: known.get(p.id)! })), 6);
  return new Map(pages.map((p) => [p.id, known.get(p.id) ?? predictRate(model, { url: p.url, mime: 'text/html', depth: p.depth }).rate]));
}

/** Mean fetch spacing under a politeness rule, in days: what the pyramid planner assumes per slot. */
export function slotDays(politeness: DelayConfig): number {
  return (politeness.minDelayMs + 200) / DAY_MS;
}

export type StrategyName = string;

/** Every strategy's plan for one site. */
export function plans(pages: readonly SimPage[], predicted: Map<string, number>, slot: number, hopelessBelow?: number): Record<StrategyName, CapturePlan> {
  const rated = (rates: (p: SimPage) => number): RatedPage[] => pages.map((p) => ({ id: p.id, rate: rates(p) }));
  const oracle = rated((p) => p.rate);
  const visitOrders: Record<string, string[]> = {
    bfs: traversalOrder(pages, 'bfs'),
    dfs: traversalOrder(pages, 'dfs'),
    'hottest-first': [...oracle].sort((a, b) => b.rate - a.rate).map((p) => p.id),
    'hottest-last': [...oracle].sort((a, b) => a.rate - b.rate).map((p) => p.id),
    'organ-pipes': organPipesOrder(oracle).map((p) => p.id),
  };
  const out: Record<StrategyName, CapturePlan> = {};
  for (const [name, order] of Object.entries(visitOrders)) {
    for (const discipline of ['fifo', 'lifo'] as const) {
      const s = scheduleFromVisitOrder(order, discipline);
      out[`${name} (revisits ${discipline.toUpperCase()})`] = { visits: s.visits, revisits: s.revisits };
    }
  }
  const ours = visitRevisitPyramid(oracle, { slotDays: slot, hopelessBelow });
  out['visit-revisit pyramid (oracle rates)'] = { visits: ours.visits, revisits: ours.revisits };
  const oursPredicted = visitRevisitPyramid(rated((p) => predicted.get(p.id)!), { slotDays: slot, hopelessBelow });
  out['visit-revisit pyramid (predicted rates)'] = { visits: oursPredicted.visits, revisits: oursPredicted.revisits };
  return out;
}
