import { DocumentFrequencies, type TermVector, addInto, normalize, termFrequencies, topTerms } from '../text';

/**
 * The crawl's topic vector, built from a small reference crawl (the seeds and pages near them)
 * plus the ICD's keywords and topics, then reviewed by the archivist.
 */

/** A weighted term as the cockpit shows it. */
export interface WeightedTerm {
  term: string;
  weight: number;
}

/** A topic vector and its most representative terms. */
export interface TopicVector {
  vector: TermVector;
  topTerms: WeightedTerm[];
}

/** How to turn text into index terms (a `TextAnalyzer`'s analyze, reduced to what is needed). */
export type TermsOf = (text: string) => string[];

/** Inputs besides the documents. */
export interface TopicVectorOptions {
  termsOf: TermsOf;
  /** Receives the reference documents' terms; a fresh instance when absent. */
  documentFrequencies?: DocumentFrequencies;
  /** How many top terms to report (default 30). */
  topN?: number;
  /** Weight of a topic description's terms relative to a weight-1 keyword (default 0.5). */
  topicTermWeight?: number;
}

/**
 * TF-IDF-weighted sum of the reference documents' term vectors (each normalised, so a long page
 * doesn't outweigh the others; averaged, so weights are comparable across crawls), plus the
 * keywords' terms with their weights and the topics' terms. A keyword of weight 1 weighs as much
 * as the strongest reference term, so keywords matter whether the reference crawl was big or not.
 */
export function buildTopicVector(
  referenceDocs: readonly { text: string }[],
  keywords: readonly WeightedTerm[],
  topics: readonly string[],
  options: TopicVectorOptions,
): TopicVector {
  const df = options.documentFrequencies ?? new DocumentFrequencies();
  const docTerms = referenceDocs.map((d) => options.termsOf(d.text));
  for (const terms of docTerms) df.addDocument(terms);
  const vector: TermVector = new Map();
  for (const terms of docTerms) {
    if (terms.length) addInto(vector, normalize(df.weigh(termFrequencies(terms))), 1 / docTerms.length);
  }
  const strongest = Math.max(0, ...vector.values()) || 1;
  for (const k of keywords) {
    const terms = new Set(options.termsOf(k.term));
    // A multi-word keyword spreads its weight over its words.
    for (const t of terms) vector.set(t, (vector.get(t) ?? 0) + (k.weight * strongest) / terms.size);
  }
  const topicWeight = (options.topicTermWeight ?? 0.5) * strongest;
  for (const topic of topics) {
    const terms = new Set(options.termsOf(topic));
    for (const t of terms) vector.set(t, (vector.get(t) ?? 0) + topicWeight / terms.size);
  }
  for (const [t, w] of vector) if (!(w > 0)) vector.delete(t);
  return { vector, topTerms: topTerms(vector, options.topN ?? 30) };
}

/** The archivist's edits to the proposed terms. */
export interface TermReview {
  /** Terms to drop (as shown, i.e. already stemmed). */
  remove: string[];
  /** Terms to add or re-weight; the weight replaces any existing one. */
  add: WeightedTerm[];
}

/**
 * Applies a term review, returning a new vector. Added terms pass through `termsOf` when given,
 * so 'Glaciers' typed by a person lands on the stem 'glacier' the documents produce.
 */
export function applyTermReview(vector: TermVector, review: TermReview, termsOf?: TermsOf): TermVector {
  const out: TermVector = new Map(vector);
  for (const term of review.remove) {
    out.delete(term);
    if (termsOf) for (const t of termsOf(term)) out.delete(t);
  }
  for (const { term, weight } of review.add) {
    const terms = termsOf ? termsOf(term) : [term];
    for (const t of terms.length ? terms : [term]) {
      if (weight > 0) out.set(t, weight);
      else out.delete(t);
    }
  }
  return out;
}

/** The ICD stores the reviewed topic vector as a plain record (`focus.topicTerms`). */
export function topicVectorFromRecord(record: Readonly<Record<string, number>>): TermVector {
  return new Map(Object.entries(record).filter(([, w]) => w > 0));
}

/** The record form of a topic vector, for `focus.topicTerms`. */
export function topicVectorToRecord(vector: TermVector): Record<string, number> {
  return Object.fromEntries(vector);
}
