/**
 * Aggregation: the weighted average of the module scores with the ICD's module weights, giving a
 * priority in [0, 1]. Modules with no score for a URL (no URL patterns configured, no AAH bonus
 * given) are left out of the average instead of dragging it towards 0; the breakdown keeps what
 * was used, so the cockpit can explain "why 0.74".
 */

/** The analysis modules, named as in the ICD's `focus.moduleWeights`. */
export type ModuleName = 'text' | 'urlPattern' | 'spam' | 'entity' | 'aah';

/** Module weights (the ICD's `focus.moduleWeights`). */
export type ModuleWeights = Record<ModuleName, number>;

/** Scores given by the modules that had something to say, each in [0, 1]. */
export type ModuleScores = Partial<Record<ModuleName, number>>;

/** A priority and why. */
export interface ScoreBreakdown {
  priority: number;
  scores: ModuleScores;
  /** The weights of the modules that took part. */
  weights: ModuleScores;
}

/** The ICD's default weights. */
export const DEFAULT_MODULE_WEIGHTS: Readonly<ModuleWeights> = Object.freeze({ text: 1, urlPattern: 0.3, spam: 0.3, entity: 0.5, aah: 0.3 });

/** Weighted average of the given scores (clamped to [0, 1]); 0 when no weighted module scored. */
export function aggregateScores(scores: ModuleScores, weights: ModuleWeights): ScoreBreakdown {
  let total = 0;
  let sum = 0;
  const used: ModuleScores = {};
  for (const name of Object.keys(scores) as ModuleName[]) {
    const s = scores[name];
    const w = weights[name];
    if (s === undefined || !Number.isFinite(s) || !(w > 0)) continue;
    used[name] = w;
    total += w;
    sum += w * Math.min(1, Math.max(0, s));
  }
  return { priority: total > 0 ? sum / total : 0, scores: { ...scores }, weights: used };
}
