/**
 * Capture schedules (SHARC). Time is counted in fetch slots: with one fetch per politeness slot,
 * the k-th fetch of a phase happens at slot k. Pure functions over page ids and change rates.
 */

export interface RatedPage {
  id: string;
  /** Changes per day (oracle, estimated or predicted). */
  rate: number;
}

/**
 * Snapshot order that minimises blur: coldest pages at both ends, hottest in the middle (the
 * "organ pipes"), because blur weighs each page's rate by its distance from the middle.
 */
export function organPipesOrder<T extends RatedPage>(pages: readonly T[]): T[] {
  const sorted = [...pages].sort((a, b) => a.rate - b.rate || a.id.localeCompare(b.id));
  const left: T[] = [];
  const right: T[] = [];
  sorted.forEach((p, i) => (i % 2 === 0 ? left.push(p) : right.push(p)));
  return [...left, ...right.reverse()];
}

export interface PyramidOptions {
  /** Duration of one fetch slot in days. */
  slotDays: number;
  /**
   * Pages whose chance to stay unchanged over their interval is below this are hopeless. Default
   * e^−1: the gain of a shorter ring, e^(−λL₁) − e^(−λL₂), grows with λ only while λL < 1, so past
   * that point giving a page a shorter ring buys less than giving it to a colder page.
   */
  hopelessBelow?: number;
}

export interface PyramidSchedule {
  /** Visit order (slots 0 … n−1). */
  visits: string[];
  /** Revisit order (slots n … 2n−1). */
  revisits: string[];
  /** The reference time in slots: between the last visit and the first revisit. */
  referenceSlot: number;
  /** Each page's visit and revisit slot. */
  slots: Map<string, { visit: number; revisit: number }>;
  hopeless: Set<string>;
}

/** Length, in slots, of the interval at ring `p` of an n-page pyramid (0 = innermost). */
export function ringIntervalSlots(p: number): number {
  return 2 * p + 1;
}

/**
 * Visit–revisit schedule shaped as a pyramid around the reference time: the page on ring p is
 * visited at slot n−1−p and revisited at slot n+p, so every interval contains the reference time
 * n − ½ and the rings nest. Hopeful pages fill the inner rings, hottest innermost (they need the
 * shortest interval to be caught unchanged); hopeless ones — those unlikely to stay unchanged
 * even on the ring they would get — take the outer rings, so they don't waste short intervals.
 * Hopelessness is decided iteratively: each page moved out shortens the others' intervals.
 */
export function visitRevisitPyramid(pages: readonly RatedPage[], opts: PyramidOptions): PyramidSchedule {
  const threshold = opts.hopelessBelow ?? Math.exp(-1);
  const n = pages.length;
  const byHeat = [...pages].sort((a, b) => b.rate - a.rate || a.id.localeCompare(b.id));
  const hopeless = new Set<string>();
  for (;;) {
    const hopeful = byHeat.filter((p) => !hopeless.has(p.id));
    let moved = false;
    hopeful.forEach((p, ring) => {
      if (Math.exp(-p.rate * ringIntervalSlots(ring) * opts.slotDays) < threshold) {
        hopeless.add(p.id);
        moved = true;
      }
    });
    if (!moved) break;
  }
  // Inner rings: hopeful, hottest first; outer rings: hopeless, least hot first.
  const rings = [...byHeat.filter((p) => !hopeless.has(p.id)), ...byHeat.filter((p) => hopeless.has(p.id)).reverse()];
  return pyramidFromRings(rings.map((p) => p.id), n, hopeless);
}

/** Builds the schedule from page ids listed innermost ring first. */
export function pyramidFromRings(ringsInnermostFirst: readonly string[], n = ringsInnermostFirst.length, hopeless = new Set<string>()): PyramidSchedule {
  const visits = [...ringsInnermostFirst].reverse();
  const revisits = [...ringsInnermostFirst];
  const slots = new Map<string, { visit: number; revisit: number }>();
  ringsInnermostFirst.forEach((id, p) => slots.set(id, { visit: n - 1 - p, revisit: n + p }));
  return { visits, revisits, referenceSlot: n - 0.5, slots, hopeless };
}

/** Revisit order relative to the visit order: first-in first-out, or last-in first-out (a pyramid). */
export type RevisitDiscipline = 'fifo' | 'lifo';

/** Slots of a schedule whose visit order is given and whose revisits follow a discipline. */
export function scheduleFromVisitOrder(visits: readonly string[], discipline: RevisitDiscipline): PyramidSchedule {
  const n = visits.length;
  const revisits = discipline === 'fifo' ? [...visits] : [...visits].reverse();
  const slots = new Map<string, { visit: number; revisit: number }>();
  visits.forEach((id, k) => slots.set(id, { visit: k, revisit: 0 }));
  revisits.forEach((id, k) => (slots.get(id)!.revisit = n + k));
  return { visits: [...visits], revisits, referenceSlot: n - 0.5, slots, hopeless: new Set() };
}

/**
 * Revisit order after a visit pass that ran in discovery order (the engine cannot choose it):
 * a pyramid by default (last visited, first revisited); with rates, hopeful pages first, hottest
 * first, and hopeless ones last. `slotDays` is the time one revisit takes.
 */
export function revisitOrder(visited: readonly { id: string; visitedAt: number; rate: number | null }[], referenceAt: number, slotDays: number, hopelessBelow = Math.exp(-1)): { order: string[]; hopeless: Set<string> } {
  const lifo = [...visited].sort((a, b) => b.visitedAt - a.visitedAt || b.id.localeCompare(a.id));
  if (!visited.some((v) => v.rate !== null && v.rate > 0)) return { order: lifo.map((v) => v.id), hopeless: new Set() };
  const byHeat = [...lifo].sort((a, b) => (b.rate ?? 0) - (a.rate ?? 0));
  const hopeless = new Set<string>();
  byHeat.forEach((v, k) => {
    const intervalDays = (referenceAt - v.visitedAt) / 86_400_000 + (k + 1) * slotDays;
    if (Math.exp(-(v.rate ?? 0) * intervalDays) < hopelessBelow) hopeless.add(v.id);
  });
  const hopeful = byHeat.filter((v) => !hopeless.has(v.id));
  return { order: [...hopeful, ...byHeat.filter((v) => hopeless.has(v.id)).reverse()].map((v) => v.id), hopeless };
}
