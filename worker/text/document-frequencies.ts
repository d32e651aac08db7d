import type { TermVector } from './term-vector';

const LOGS = Float64Array.from({ length: 4096 }, (_, n) => Math.log(n));

/** ln n, from a table for small whole n. */
function logOf(n: number): number {
  return LOGS[n] ?? Math.log(n);
}

/** Serialised form of {@link DocumentFrequencies}. */
export interface DocumentFrequenciesJson {
  documents: number;
  df: Record<string, number>;
}

/**
 * Document frequencies learnt online: every analysed document adds its distinct terms, and the
 * inverse document frequency follows the corpus seen so far. A crawl owns one instance (no global).
 */
export class DocumentFrequencies {
  private readonly df = new Map<string, number>();
  private documents = 0;

  /** Number of documents seen. */
  get documentCount(): number {
    return this.documents;
  }

  /**
   * Counts one document with these terms (duplicates within the document count once), or with
   * the terms of its term-count vector.
   */
  addDocument(terms: Iterable<string> | TermVector): void {
    for (const t of terms instanceof Map ? terms.keys() : new Set(terms)) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.documents++;
  }

  /** How many documents contained `term`. */
  frequency(term: string): number {
    return this.df.get(term) ?? 0;
  }

  /**
   * Smoothed IDF, ln((1 + N) / (1 + df)) + 1: positive for every term, so a term never seen
   * (df = 0) weighs most and a term in every document still weighs a little.
   */
  idf(term: string): number {
    return this.idfWith(Math.log(1 + this.documents) + 1, term);
  }

  /** idf(term) as ln(1 + N) + 1 − ln(1 + df), given the first part (`base`), computed once per vector. */
  private idfWith(base: number, term: string): number {
    return base - logOf(1 + (this.df.get(term) ?? 0));
  }

  /** The TF-IDF weight of a term counted `f` times, given idf's `base`: sub-linear TF (1 + ln tf). */
  private weightWith(base: number, f: number, term: string): number {
    return (1 + logOf(f)) * this.idfWith(base, term);
  }

  /** TF-IDF weighting of a term-frequency vector, with sub-linear TF (1 + ln tf). */
  weigh(tf: TermVector): TermVector {
    const out: TermVector = new Map();
    // The logarithms of small counts come from a table: every page weighs its text and each of its
    // link contexts, term by term.
    const base = Math.log(1 + this.documents) + 1;
    tf.forEach((f, t) => {
      if (f > 0) out.set(t, this.weightWith(base, f, t));
    });
    return out;
  }

  /**
   * cosine(weigh(tf), fixed), given norm(fixed), without building the weighted vector: focused
   * crawling needs only this number for a page's text and for each anchor and paragraph of its
   * links (dozens per page), and building each vector cost more than the arithmetic. The sums run
   * in the order cosineTo(fixed)(weigh(tf)) runs them, so the result is the same to the last bit.
   * Undefined when weigh(tf) has no term.
   */
  cosineOfWeighted(tf: TermVector, fixed: TermVector, fixedNorm: number): number | undefined {
    const base = Math.log(1 + this.documents) + 1;
    let size = 0;
    let squares = 0;
    tf.forEach((f, t) => {
      if (f <= 0) return;
      const w = this.weightWith(base, f, t);
      size++;
      squares += w * w;
    });
    if (size === 0) return undefined;
    // dot() iterates the smaller vector (the fixed one when sizes tie) and multiplies its weight by the other's.
    let dot = 0;
    if (fixed.size <= size) {
      fixed.forEach((o, t) => {
        const f = tf.get(t);
        if (f !== undefined && f > 0) dot += o * this.weightWith(base, f, t);
      });
    } else {
      tf.forEach((f, t) => {
        if (f <= 0) return;
        const o = fixed.get(t);
        if (o !== undefined) dot += this.weightWith(base, f, t) * o;
      });
    }
    const n = Math.sqrt(squares);
    if (fixedNorm === 0 || n === 0) return 0;
    const c = dot / (fixedNorm * n);
    return c > 1 ? 1 : c < -1 ? -1 : c;
  }

  /** A frozen copy (e.g. to evaluate every strategy of a benchmark with the same weights). */
  clone(): DocumentFrequencies {
    return DocumentFrequencies.fromJSON(this.toJSON());
  }

  toJSON(): DocumentFrequenciesJson {
    return { documents: this.documents, df: Object.fromEntries(this.df) };
  }

  static fromJSON(json: DocumentFrequenciesJson): DocumentFrequencies {
    const d = new DocumentFrequencies();
    d.documents = json.documents;
    for (const [t, n] of Object.entries(json.df)) d.df.set(t, n);
    return d;
  }
}
