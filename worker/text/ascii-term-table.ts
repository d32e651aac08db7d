import type { TermVector } from './term-vector';

/**
 * Counts the index terms of ASCII text without making a string per token. Focused crawling
 * counts the terms of every page, and on text-heavy pages making, hashing and looking up a string
 * per token was most of the analysis thread's time. Here a token is hashed while it is scanned and
 * found in an open-addressing table of the tokens seen before, compared byte by byte with their
 * lower-cased copies kept back to back in one byte array;
 * only a token seen for the first time becomes a string (and gets its term, '' for a stop word).
 * A token of up to 10 letters is also read as a number, 5 bits per letter: equal numbers are equal
 * tokens, so most tokens are matched without comparing bytes (a quarter less time per character).
 * Counts go into a typed array and become a TermVector once per text.
 *
 * Tokens are what the tokenizer's ASCII path gives (tokenize.ts): runs of letters a–z, lower-cased,
 * of at least `minLength` characters. A term vector's entries come in the order of each term's
 * first occurrence, as counting term by term would give.
 */
const INITIAL_BYTES = 1 << 16;
const MAX_KEPT_BYTES = 1 << 20;
/** 10 letters × 5 bits = 50 bits: below 2^53, so a double holds the key exactly. */
const MAX_KEYED_LENGTH = 10;

export class AsciiTermTable {
  private terms: string[] = [];
  private hashes = new Int32Array(0);
  /** Token length per slot; 0 marks a free slot. */
  private lengths = new Int32Array(0);
  /** Where each slot's token starts in `pool`: comparing bytes is cheaper than reading a string. */
  private offsets = new Int32Array(0);
  private counts = new Int32Array(0);
  /** Per slot, its token as a number (see countBytes), exact for up to MAX_KEYED_LENGTH letters. */
  private keys = new Float64Array(0);
  /** Slots counted in the current text, in order of first occurrence. */
  private touched = new Int32Array(0);
  private mask = 0;
  private entries = 0;
  /** The tokens seen, lower-cased, back to back. */
  private pool = new Uint8Array(INITIAL_BYTES);
  private poolUsed = 0;
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
    this.startAfresh();
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
    if (this.entries >= this.maxEntries) this.startAfresh();
    const minLength = this.minLength;
    // Local copies for the hot loop; a new token or a rehash may replace the arrays.
    let { hashes, lengths, offsets, counts, keys, mask, pool } = this;
    let touched = 0;
    let i = 0;
    while (i < n) {
      let c = b[i]!;
      // Letters are lower-cased in the copy as they are read, so tokens compare byte for byte.
      if (c >= 65 && c <= 90) b[i] = c |= 32;
      if (c < 97 || c > 122) {
        i++;
        continue;
      }
      const start = i;
      let h = 0x811c9dc5 | 0; // FNV-1a, kept a 32-bit integer
      let key = 0; // base 32, a = 1 … z = 26: no two tokens alike, while the double holds it exactly
      for (;;) {
        h = Math.imul(h ^ c, 0x01000193);
        key = key * 32 + (c & 31);
        if (++i >= n) break;
        c = b[i]!;
        if (c >= 65 && c <= 90) b[i] = c |= 32;
        if (c < 97 || c > 122) break;
      }
      const len = i - start;
      if (len < minLength) continue;
      let slot = (h ^ (h >>> 15)) & mask;
      for (;; slot = (slot + 1) & mask) {
        const slotLength = lengths[slot]!;
        if (slotLength === 0) {
          this.add(slot, start, i, h);
          keys[slot] = key;
          pool = this.pool;
          break;
        }
        if (hashes[slot] !== h || slotLength !== len) continue;
        if (len <= MAX_KEYED_LENGTH) {
          if (keys[slot] === key) break;
          continue;
        }
        const off = offsets[slot]!;
        let j = 0;
        while (j < len && pool[off + j] === b[start + j]) j++;
        if (j === len) break;
      }
      if (counts[slot]++ === 0) {
        if (touched === this.touched.length) this.touched = grown(this.touched);
        this.touched[touched++] = slot;
      }
      if (this.entries * 2 > mask) {
        touched = this.rehash(touched);
        ({ hashes, lengths, offsets, counts, keys, mask } = this);
      }
    }
    const out: TermVector = new Map();
    const terms = this.terms;
    for (let k = 0; k < touched; k++) {
      const slot = this.touched[k]!;
      const term = terms[slot]!;
      if (term) out.set(term, (out.get(term) ?? 0) + counts[slot]!);
      counts[slot] = 0;
    }
    return out;
  }

  /** Puts the token bytes[start, end) (lower-cased already) with hash `h` in the free `slot`. */
  private add(slot: number, start: number, end: number, h: number): void {
    const len = end - start;
    if (this.poolUsed + len > this.pool.length) {
      const pool = new Uint8Array(Math.max(this.pool.length * 2, this.poolUsed + len));
      pool.set(this.pool.subarray(0, this.poolUsed));
      this.pool = pool;
    }
    this.bytes.copy(this.pool, this.poolUsed, start, end);
    this.offsets[slot] = this.poolUsed;
    this.poolUsed += len;
    this.lengths[slot] = len;
    this.hashes[slot] = h;
    this.terms[slot] = this.termOf(this.bytes.toString('latin1', start, end));
    this.entries++;
  }

  /** Doubles the table, keeping the counts of the text being read; returns its touched count. */
  private rehash(touched: number): number {
    const { terms, hashes, lengths, offsets, counts, keys } = this;
    const pending = new Map<number, number>(); // old slot → its order among the touched
    for (let k = 0; k < touched; k++) pending.set(this.touched[k]!, k);
    this.allocate(lengths.length * 2);
    const order = new Int32Array(touched);
    for (let old = 0; old < lengths.length; old++) {
      if (lengths[old] === 0) continue;
      let slot = (hashes[old]! ^ (hashes[old]! >>> 15)) & this.mask;
      while (this.lengths[slot] !== 0) slot = (slot + 1) & this.mask;
      this.terms[slot] = terms[old]!;
      this.hashes[slot] = hashes[old]!;
      this.lengths[slot] = lengths[old]!;
      this.offsets[slot] = offsets[old]!;
      this.counts[slot] = counts[old]!;
      this.keys[slot] = keys[old]!;
      this.entries++;
      const k = pending.get(old);
      if (k !== undefined) order[k] = slot;
    }
    this.touched = new Int32Array(Math.max(touched, 64));
    this.touched.set(order);
    return touched;
  }

  /** Forgets every token (at start, and when the table holds `maxEntries`). */
  private startAfresh(): void {
    this.allocate(1 << 12);
    this.poolUsed = 0;
    if (this.pool.length > MAX_KEPT_BYTES) this.pool = new Uint8Array(INITIAL_BYTES);
  }

  private allocate(size: number): void {
    this.terms = new Array<string>(size).fill('');
    this.hashes = new Int32Array(size);
    this.lengths = new Int32Array(size);
    this.offsets = new Int32Array(size);
    this.counts = new Int32Array(size);
    this.keys = new Float64Array(size);
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
