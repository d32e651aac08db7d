import type { TermVector } from './term-vector';

/**
 * Counts the index terms of ASCII text without making a string per token. Focused crawling
 * counts the terms of every page, and on text-heavy pages making, hashing and looking up a string
 * per token was most of the analysis thread's time. Here a token is hashed while it is scanned and
 * found in an open-addressing table of the tokens seen before, compared character by character;
 * only a token seen for the first time becomes a string (and gets its term, '' for a stop word).
 * Counts go into a typed array and become a TermVector once per text.
 *
 * Tokens are what the tokenizer's ASCII path gives (tokenize.ts): runs of letters a–z, lower-cased,
 * of at least `minLength` characters. A term vector's entries come in the order of each term's
 * first occurrence, as counting term by term would give.
 */
const INITIAL_BYTES = 1 << 16;
const MAX_KEPT_BYTES = 1 << 20;

export class AsciiTermTable {
  private tokens: string[] = [];
  private terms: string[] = [];
  private hashes = new Int32Array(0);
  private counts = new Int32Array(0);
  /** Slots counted in the current text, in order of first occurrence. */
  private touched = new Int32Array(0);
  private mask = 0;
  private entries = 0;
  /** The text being counted, one byte per character. */
  private bytes = Buffer.allocUnsafe(INITIAL_BYTES);

  /**
   * `termOf`: a new token's index term ('' for none). `maxEntries`: tokens remembered before the
   * table starts afresh (the stem cache's bound).
   */
  constructor(
    private readonly termOf: (token: string) => string,
    private readonly minLength: number,
    private readonly maxEntries: number,
  ) {
    this.allocate(1 << 12);
  }

  /** Term counts of `text`, or null when it holds a non-ASCII character (for the Unicode path). */
  count(text: string): TermVector | null {
    // One byte per character, or it is not ASCII; a byte loop runs about twice as fast as charCodeAt.
    if (Buffer.byteLength(text, 'utf8') !== text.length) return null;
    if (this.bytes.length < text.length) this.bytes = Buffer.allocUnsafe(Math.max(text.length, this.bytes.length * 2));
    try {
      return this.countBytes(text);
    } finally {
      // The byte copy is kept for the next texts, but not past 1 MB.
      if (this.bytes.length > MAX_KEPT_BYTES) this.bytes = Buffer.allocUnsafe(INITIAL_BYTES);
    }
  }

  private countBytes(text: string): TermVector {
    const b = this.bytes;
    const n = b.write(text, 0, 'latin1');
    if (this.entries >= this.maxEntries) this.allocate(1 << 12);
    let touched = 0;
    let i = 0;
    while (i < n) {
      let c = b[i]!;
      if (c >= 65 && c <= 90) c |= 32;
      if (c < 97 || c > 122) {
        i++;
        continue;
      }
      const start = i;
      let h = 0x811c9dc5;
      for (;;) {
        h = Math.imul(h ^ c, 0x01000193);
        if (++i >= n) break;
        c = b[i]!;
        if (c >= 65 && c <= 90) c |= 32;
        if (c < 97 || c > 122) break;
      }
      if (i - start < this.minLength) continue;
      const slot = this.slotOf(start, i, h);
      if (this.counts[slot]++ === 0) {
        if (touched === this.touched.length) this.touched = grown(this.touched);
        this.touched[touched++] = slot;
      }
      if (this.entries * 2 > this.mask) touched = this.rehash(touched);
    }
    const out: TermVector = new Map();
    for (let k = 0; k < touched; k++) {
      const slot = this.touched[k]!;
      const term = this.terms[slot]!;
      if (term) out.set(term, (out.get(term) ?? 0) + this.counts[slot]!);
      this.counts[slot] = 0;
    }
    return out;
  }

  /** The slot of the token bytes[start, end) with hash `h`, added when new. */
  private slotOf(start: number, end: number, h: number): number {
    const b = this.bytes;
    const len = end - start;
    for (let slot = (h ^ (h >>> 15)) & this.mask; ; slot = (slot + 1) & this.mask) {
      const token = this.tokens[slot]!;
      if (token.length === 0) {
        const fresh = b.toString('latin1', start, end).toLowerCase();
        this.tokens[slot] = fresh;
        this.terms[slot] = this.termOf(fresh);
        this.hashes[slot] = h;
        this.entries++;
        return slot;
      }
      if (this.hashes[slot] !== h || token.length !== len) continue;
      let j = 0;
      for (; j < len; j++) {
        let c = b[start + j]!;
        if (c >= 65 && c <= 90) c |= 32;
        if (token.charCodeAt(j) !== c) break;
      }
      if (j === len) return slot;
    }
  }

  /** Doubles the table, keeping the counts of the text being read; returns its touched count. */
  private rehash(touched: number): number {
    const { tokens, terms, hashes, counts } = this;
    const pending = new Map<number, number>(); // old slot → its order among the touched
    for (let k = 0; k < touched; k++) pending.set(this.touched[k]!, k);
    this.allocate((this.mask + 1) * 2);
    const order = new Int32Array(touched);
    for (let old = 0; old < tokens.length; old++) {
      const token = tokens[old]!;
      if (token.length === 0) continue;
      let slot = (hashes[old]! ^ (hashes[old]! >>> 15)) & this.mask;
      while (this.tokens[slot]!.length !== 0) slot = (slot + 1) & this.mask;
      this.tokens[slot] = token;
      this.terms[slot] = terms[old]!;
      this.hashes[slot] = hashes[old]!;
      this.counts[slot] = counts[old]!;
      this.entries++;
      const k = pending.get(old);
      if (k !== undefined) order[k] = slot;
    }
    this.touched = new Int32Array(Math.max(touched, 64));
    this.touched.set(order);
    return touched;
  }

  private allocate(size: number): void {
    this.tokens = new Array<string>(size).fill('');
    this.terms = new Array<string>(size).fill('');
    this.hashes = new Int32Array(size);
    this.counts = new Int32Array(size);
    if (this.touched.length === 0) this.touched = new Int32Array(1024);
    this.mask = size - 1;
    this.entries = 0;
  }
}

function grown(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
