/** Seeded randomness for the coherence and feed simulations (pure-rand), so runs are reproducible. */
import prand from 'pure-rand';

/** Uniform floats in [0, 1) from a seeded xorshift128+ stream. */
export function uniformStream(seed: number): () => number {
  const g = prand.xorshift128plus(seed);
  return () => (g.unsafeNext() >>> 0) / 4294967296;
}

/** A standard normal sample (Box–Muller). */
export function normal(u: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/** An exponential waiting time with this rate. */
export function exponential(u: () => number, rate: number): number {
  return -Math.log(1 - u()) / rate;
}

/** Event times of a Poisson process of `rate` per unit time on [0, horizon). */
export function poissonEvents(u: () => number, rate: number, horizon: number): number[] {
  const out: number[] = [];
  if (!(rate > 0)) return out;
  for (let t = exponential(u, rate); t < horizon; t += exponential(u, rate)) out.push(t);
  return out;
}
