import { createHash } from 'node:crypto';

/**
 * What we keep of one capture of a page to compare it with another capture later: the HTTP
 * validators, the payload digest, a digest of the main text with timestamps masked, a bottom-k
 * sketch of its word shingles and its out-links. Pure: built from data the pipeline already has.
 */
export interface PageFingerprint {
  /** HTTP status of the capture. */
  status: number;
  etag: string | null;
  lastModified: string | null;
  /** `sha1:<BASE32>` of the payload as received. */
  payloadDigest: string;
  /** sha1 hex of the normalised main text (timestamps masked). */
  textDigest: string;
  /** Bottom-k sketch of the text's w-shingle hashes, sorted ascending, unique. */
  sketch: number[];
  /** Navigation out-links, sorted and unique. */
  outLinks: string[];
  /** Latest timestamp written in the content (ISO 8601), if any. */
  contentTimestamp: string | null;
  /** When the capture was made (epoch ms). */
  fetchedAt: number;
  /**
   * True when a failed fetch cut the body off (a timeout or the connection closed mid-body): the
   * rest describes part of the page only. Absent when whole (and in fingerprints stored before).
   */
  cut?: true;
}

/** Shingle width (words) and sketch size; 4-word shingles are the usual choice for near-duplicates. */
export const SHINGLE_WIDTH = 4;
export const SKETCH_SIZE = 128;

const MONTHS = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const MONTH_INDEX: Record<string, number> = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 };
/** ISO dates with optional time, `12 March 2026`, `March 12, 2026`, and clock times. */
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})(?:([T ])(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(?:Z|([+-])(\d{2}):?(\d{2}))?)?\b/g;
const DAY_MONTH_YEAR = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(${MONTHS})\\.?,?\\s+(\\d{4})\\b`, 'gi');
const MONTH_DAY_YEAR = new RegExp(`\\b(${MONTHS})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi');
const CLOCK_TIME = /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?\b/gi;

/**
 * Timestamps written in a text, as ISO strings (date only → midnight UTC; an RFC 3339 time with an
 * offset taken at it, one without in UTC). Used to date a page
 * whose server sends no trustworthy Last-Modified, and masked before digesting the text so that
 * a changed "generated at" line is not a change of content.
 */
export function findContentTimestamps(text: string): string[] {
  const found: number[] = [];
  for (const m of text.matchAll(ISO_DATE)) {
    // An RFC 3339 time with its offset (`T10:30+05:30`, as pages in India date themselves) is that much
    // before UTC. Not after a space: `2026-03-12 10:30-11:30` is more likely a time range than an offset.
    const offsetMin = m[4] === 'T' && m[8] ? (m[8] === '-' ? -1 : 1) * (+m[9]! * 60 + +m[10]!) : 0;
    const t = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, m[5] ? +m[5] : 0, m[6] ? +m[6] : 0, m[7] ? +m[7] : 0) - offsetMin * 60_000;
    if (Number.isFinite(t) && +m[2]! >= 1 && +m[2]! <= 12 && +m[3]! >= 1 && +m[3]! <= 31) found.push(t);
  }
  for (const m of text.matchAll(DAY_MONTH_YEAR)) found.push(Date.UTC(+m[3]!, MONTH_INDEX[m[2]!.slice(0, 3).toLowerCase()]!, +m[1]!));
  for (const m of text.matchAll(MONTH_DAY_YEAR)) found.push(Date.UTC(+m[3]!, MONTH_INDEX[m[1]!.slice(0, 3).toLowerCase()]!, +m[2]!));
  return [...new Set(found.filter((t) => Number.isFinite(t)))].sort((a, b) => a - b).map((t) => new Date(t).toISOString());
}

/** Lower-cased words of a text with dates and clock times replaced by one placeholder. */
export function normalizedWords(text: string): string[] {
  const masked = text.replace(ISO_DATE, ' \u0000 ').replace(DAY_MONTH_YEAR, ' \u0000 ').replace(MONTH_DAY_YEAR, ' \u0000 ').replace(CLOCK_TIME, ' \u0000 ');
  const words = masked.toLowerCase().split(/[^\p{L}\p{N}\u0000]+/u).filter(Boolean);
  // "12 March 2026, 10:15" and "2026-03-12 10:15" both become one placeholder.
  return words.filter((w, i) => w !== '\u0000' || words[i - 1] !== '\u0000').map((w) => (w === '\u0000' ? '\u0000ts' : w));
}

/** Digest of the main text, blind to whitespace, case, dates and clock times. */
export function textDigest(text: string): string {
  return digestOfWords(normalizedWords(text));
}

function digestOfWords(words: readonly string[]): string {
  return createHash('sha1').update(words.join(' ')).digest('hex');
}

/** 32-bit FNV-1a: a small, stable hash for shingles (the sketch must compare across runs). */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Bottom-k sketch of a text's w-word shingles: the k smallest distinct shingle hashes. Two
 * sketches estimate the Jaccard similarity of the full shingle sets (exactly, when a set has
 * fewer than k shingles).
 */
export function shingleSketch(text: string, w = SHINGLE_WIDTH, k = SKETCH_SIZE): number[] {
  return sketchOfWords(normalizedWords(text), w, k);
}

/**
 * shingleSketch of normalised words. Each shingle is hashed as fnv1a of its words joined by a space,
 * over the words in place rather than a joined string, and the hashes sorted as a typed array: the
 * same sketch (sketches are stored and compared across runs), at a fraction of the cost (~10 ms of
 * the crawl thread for a 40 KB page before).
 */
function sketchOfWords(words: readonly string[], w: number, k: number): number[] {
  if (words.length === 0) return [];
  if (words.length < w) return [fnv1a(words.join(' '))];
  const hashes = new Uint32Array(words.length - w + 1);
  for (let i = 0; i < hashes.length; i++) hashes[i] = shingleHash(words, i, w);
  hashes.sort();
  const sketch: number[] = [];
  for (let i = 0; i < hashes.length && sketch.length < k; i++) if (i === 0 || hashes[i] !== hashes[i - 1]) sketch.push(hashes[i]!);
  return sketch;
}

/** fnv1a(words.slice(start, start + w).join(' ')), without making that string. */
function shingleHash(words: readonly string[], start: number, w: number): number {
  let h = 0x811c9dc5;
  for (let j = start; j < start + w; j++) {
    if (j > start) h = Math.imul(h ^ 0x20, 0x01000193);
    const word = words[j]!;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

/** Jaccard similarity estimated from two bottom-k sketches (1 for two empty texts). */
export function sketchJaccard(a: readonly number[], b: readonly number[], k = SKETCH_SIZE): number {
  if (a.length === 0 && b.length === 0) return 1;
  const inA = new Set(a);
  const inB = new Set(b);
  const union = [...new Set([...a, ...b])].sort((x, y) => x - y).slice(0, k);
  let both = 0;
  for (const h of union) if (inA.has(h) && inB.has(h)) both++;
  return both / union.length;
}

/** Builds a fingerprint from what the pipeline extracted from one capture. */
export function fingerprintCapture(c: {
  status: number;
  headers: Record<string, string>;
  payloadDigest: string;
  mainText: string;
  outLinks: readonly string[];
  fetchedAt: number;
  /** The body was cut off by a failed fetch (cutByFailedFetch). */
  cut?: boolean;
}): PageFingerprint {
  const stamps = findContentTimestamps(c.mainText);
  // Normalised once for both the digest and the sketch.
  const words = normalizedWords(c.mainText);
  return {
    status: c.status,
    etag: c.headers['etag'] ?? null,
    lastModified: c.headers['last-modified'] ?? null,
    payloadDigest: c.payloadDigest,
    textDigest: digestOfWords(words),
    sketch: sketchOfWords(words, SHINGLE_WIDTH, SKETCH_SIZE),
    outLinks: [...new Set(c.outLinks)].sort(),
    contentTimestamp: stamps.at(-1) ?? null,
    fetchedAt: c.fetchedAt,
    ...(c.cut ? { cut: true as const } : {}),
  };
}
