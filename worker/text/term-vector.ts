/**
 * Sparse term vectors (term → weight) and the arithmetic the analysis needs. Vectors are plain
 * Maps so they serialise trivially and can be built by any producer.
 */

/** A sparse term vector. */
export type TermVector = Map<string, number>;

/** Raw term frequencies of a list of terms. */
export function termFrequencies(terms: Iterable<string>): TermVector {
  const v: TermVector = new Map();
  for (const t of terms) v.set(t, (v.get(t) ?? 0) + 1);
  return v;
}

/** Euclidean norm. */
export function norm(v: TermVector): number {
  let s = 0;
  for (const w of v.values()) s += w * w;
  return Math.sqrt(s);
}

/** Dot product; iterates the smaller vector. */
export function dot(a: TermVector, b: TermVector): number {
  const small = a.size <= b.size ? a : b;
  const large = small === a ? b : a;
  let s = 0;
  // forEach rather than for…of: no [term, weight] pair per entry (dozens of products per page).
  small.forEach((w, t) => {
    const o = large.get(t);
    if (o !== undefined) s += w * o;
  });
  return s;
}

/** Cosine similarity in [0,1] for non-negative vectors; 0 when either vector is empty. */
export function cosine(a: TermVector, b: TermVector): number {
  const na = norm(a);
  const nb = norm(b);
  if (na === 0 || nb === 0) return 0;
  const c = dot(a, b) / (na * nb);
  // Rounding can push a self-similarity a hair above 1.
  return c > 1 ? 1 : c < -1 ? -1 : c;
}

/**
 * Cosine similarity with a fixed vector (the topic), its norm computed once: the analysis
 * compares one topic with dozens of vectors per page, and the topic can hold thousands of terms.
 */
export function cosineTo(fixed: TermVector): (v: TermVector) => number {
  const nf = norm(fixed);
  return (v) => {
    const nv = norm(v);
    if (nf === 0 || nv === 0) return 0;
    const c = dot(fixed, v) / (nf * nv);
    return c > 1 ? 1 : c < -1 ? -1 : c;
  };
}

/** A copy of `v` scaled to unit length (an empty or zero vector stays as it is). */
export function normalize(v: TermVector): TermVector {
  const n = norm(v);
  const out: TermVector = new Map();
  if (n === 0) return out;
  for (const [t, w] of v) out.set(t, w / n);
  return out;
}

/** Adds `scale × v` into `target` in place (for accumulating sums without copies); returns target. */
export function addInto(target: TermVector, v: TermVector, scale = 1): TermVector {
  for (const [t, w] of v) target.set(t, (target.get(t) ?? 0) + scale * w);
  return target;
}

/** The sum of several vectors, each optionally normalised first so long texts don't dominate. */
export function sumVectors(vectors: Iterable<TermVector>, options: { normalizeEach?: boolean } = {}): TermVector {
  const out: TermVector = new Map();
  for (const v of vectors) addInto(out, options.normalizeEach ? normalize(v) : v);
  return out;
}

/** The `n` heaviest terms, heaviest first (ties by term, for stable output). */
export function topTerms(v: TermVector, n: number): { term: string; weight: number }[] {
  return [...v]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, n)
    .map(([term, weight]) => ({ term, weight }));
}
