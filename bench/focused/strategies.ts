import type { Strategy } from './run-crawl';

/**
 * The strategies compared: BFS (Heritrix's default, the baseline), the five update functions
 * with one URL per take and per-page scoring, and AVG with bl ∈ {1, 5} with and without batch
 * updating (ARCOMEM's Table 2 is about AVG).
 */
export const STRATEGIES: readonly Strategy[] = [
  { name: 'BFS', focused: false, update: 'FIRST', bl: 1, batch: false },
  { name: 'FIRST', focused: true, update: 'FIRST', bl: 1, batch: false },
  { name: 'LAST', focused: true, update: 'LAST', bl: 1, batch: false },
  { name: 'MAX', focused: true, update: 'MAX', bl: 1, batch: false },
  { name: 'AVG', focused: true, update: 'AVG', bl: 1, batch: false },
  { name: 'SUM', focused: true, update: 'SUM', bl: 1, batch: false },
  { name: 'AVG-bl1-batch', focused: true, update: 'AVG', bl: 1, batch: true },
  { name: 'AVG-bl5', focused: true, update: 'AVG', bl: 5, batch: false },
  { name: 'AVG-bl5-batch', focused: true, update: 'AVG', bl: 5, batch: true },
];

/** Summary statistics of one metric over the runs. */
export interface Spread {
  min: number;
  max: number;
  sd: number;
}

/** Mean, min, max and (population) standard deviation. */
export function summarise(values: readonly number[]): { mean: number } & Spread {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  return { mean, min: Math.min(...values), max: Math.max(...values), sd };
}
