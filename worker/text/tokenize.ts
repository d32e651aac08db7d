/**
 * Tokenisation: Unicode-normalised (NFKC), lower-cased runs of letters (with their combining
 * marks, so Devanagari or decomposed accents stay inside a word). Digits and punctuation split.
 */

const WORD = /[\p{L}\p{M}]+/gu;
const ASCII = /^[\x00-\x7f]*$/;

/** Splits a text into lower-case word tokens of at least `minLength` characters (default 2). */
export function tokenize(text: string, minLength = 2): string[] {
  // NFKC leaves ASCII unchanged; skipping it there saves most of the cost on Latin text.
  const normalised = (ASCII.test(text) ? text : text.normalize('NFKC')).toLowerCase();
  const tokens: string[] = [];
  for (const match of normalised.matchAll(WORD)) {
    const token = match[0];
    if (token.length >= minLength) tokens.push(token);
  }
  return tokens;
}
