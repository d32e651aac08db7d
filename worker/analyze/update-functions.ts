/**
 * Adaptive prioritisation: when a queued URL is found again with a new score, its priority is
 * recomputed from all scores seen so far with the ICD's update function (ARCOMEM's FIRST, LAST,
 * MAX, AVG, SUM). Pure, so the SQLite frontier and the simulation share the same maths.
 */

/** The ICD's priority update functions. */
export type UpdateFunctionName = 'FIRST' | 'LAST' | 'MAX' | 'AVG' | 'SUM';

/** Everything any update function needs to know about a URL's observed scores. */
export interface ScoreHistory {
  first: number;
  last: number;
  max: number;
  sum: number;
  count: number;
}

/** A history with no observation yet. */
export const EMPTY_HISTORY: Readonly<ScoreHistory> = Object.freeze({ first: 0, last: 0, max: 0, sum: 0, count: 0 });

/** The priority a history gives under `fn`. SUM is not bounded by 1: it rewards many in-links. */
export function priorityOf(fn: UpdateFunctionName, state: ScoreHistory): number {
  if (state.count === 0) return 0;
  switch (fn) {
    case 'FIRST':
      return state.first;
    case 'LAST':
      return state.last;
    case 'MAX':
      return state.max;
    case 'AVG':
      return state.sum / state.count;
    case 'SUM':
      return state.sum;
  }
}

/**
 * Records one more observed `score` for a URL and returns the new history and priority.
 * Non-finite scores count as 0 so a faulty module can't poison the frontier's order.
 */
export function applyUpdate(
  fn: UpdateFunctionName,
  state: ScoreHistory,
  score: number,
): { state: ScoreHistory; priority: number } {
  const s = Number.isFinite(score) ? score : 0;
  const next: ScoreHistory =
    state.count === 0
      ? { first: s, last: s, max: s, sum: s, count: 1 }
      : { first: state.first, last: s, max: Math.max(state.max, s), sum: state.sum + s, count: state.count + 1 };
  return { state: next, priority: priorityOf(fn, next) };
}
