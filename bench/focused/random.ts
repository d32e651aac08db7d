/** Deterministic randomness for the simulation: seeded streams and Zipf samplers. */
import prand from 'pure-rand';

/**
 * A seeded uniform generator of floats in [0, 1) (pure-rand's xoroshiro128+): one stream per
 * page or link, so any page can be regenerated alone, in any order, identically.
 */
export function seededRandom(seed: number): () => number {
  const g = prand.xoroshiro128plus(seed);
  return () => (g.unsafeNext() >>> 0) / 4294967296;
}

/** Mixes integers into one 32-bit seed (so page 7's links don't share a stream with page 8's). */
export function mixSeed(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x01000193);
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

/** Samples ranks 0..n-1 with probability ∝ 1/(rank+1)^s. */
export class ZipfSampler {
  private readonly cdf: Float64Array;
  constructor(n: number, s: number) {
    this.cdf = new Float64Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) this.cdf[i] = sum += 1 / Math.pow(i + 1, s);
    for (let i = 0; i < n; i++) this.cdf[i]! /= sum;
  }
  sample(rand: () => number): number {
    const u = rand();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
