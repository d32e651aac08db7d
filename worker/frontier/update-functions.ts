import type { UpdateFunction } from './frontier';

/** What the frontier keeps per URL to apply any update function: the raw score and the history. */
export interface ScoreState {
  /** The score as the update function left it (SUM may exceed 1). */
  raw: number;
  /**
   * How many scores were seen (the first discovery counts). 0: the score is provisional — a link
   * queued in batch mode before its batch closed — and the first real score replaces it.
   */
  count: number;
  sum: number;
}

/** Clamps a raw score into the [0,1] precedence used for ordering (NaN counts as 0). */
export function precedenceOf(raw: number): number {
  if (!(raw > 0)) return 0;
  return raw > 1 ? 1 : raw;
}

/** The score state of a URL seen for the first time with `score`. */
export function firstScore(score: number): ScoreState {
  const s = Number.isFinite(score) ? score : 0;
  return { raw: s, count: 1, sum: s };
}

/** The score state of a URL queued with a provisional score (batch mode): ordered by it, counted as nothing. */
export function provisionalScore(score: number): ScoreState {
  return { raw: Number.isFinite(score) ? score : 0, count: 0, sum: 0 };
}

/**
 * Applies an update function when a queued URL is found again with a new score: FIRST keeps the
 * first score, LAST takes the newest, MAX the largest, AVG the mean of all, SUM their sum. A
 * provisional score (count 0) is replaced, whatever the function.
 */
export function applyUpdate(state: ScoreState, score: number, fn: UpdateFunction): ScoreState {
  if (state.count === 0) return firstScore(score);
  const s = Number.isFinite(score) ? score : 0;
  const count = state.count + 1;
  const sum = state.sum + s;
  switch (fn) {
    case 'FIRST':
      return { raw: state.raw, count, sum };
    case 'LAST':
      return { raw: s, count, sum };
    case 'MAX':
      return { raw: Math.max(state.raw, s), count, sum };
    case 'AVG':
      return { raw: sum / count, count, sum };
    case 'SUM':
      return { raw: sum, count, sum };
  }
}
