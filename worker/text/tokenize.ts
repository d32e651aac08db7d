/**
 * Tokenisation: Unicode-normalised (NFKC), lower-cased runs of letters (with their combining
 * marks, so Devanagari or decomposed accents stay inside a word). Digits and punctuation split.
 */

const WORD = /[\p{L}\p{M}]+/gu;

/** Splits a text into lower-case word tokens of at least `minLength` characters (default 2). */
export function tokenize(text: string, minLength = 2): string[] {
  return asciiTokens(text, minLength) ?? unicodeTokens(text, minLength);
}

/**
 * Most crawled text is ASCII, where letters are a–z once lower-cased and NFKC changes nothing: a
 * character loop is a third faster than the Unicode regex. Null at the first non-ASCII character.
 */
function asciiTokens(text: string, minLength: number): string[] | null {
  const lower = text.toLowerCase();
  const tokens: string[] = [];
  let start = -1;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c >= 97 && c <= 122) {
      if (start < 0) start = i;
      continue;
    }
    if (c >= 128) return null;
    if (start >= 0 && i - start >= minLength) tokens.push(lower.slice(start, i));
    start = -1;
  }
  if (start >= 0 && lower.length - start >= minLength) tokens.push(lower.slice(start));
  return tokens;
}

function unicodeTokens(text: string, minLength: number): string[] {
  const normalised = text.normalize('NFKC').toLowerCase();
  const tokens: string[] = [];
  for (const match of normalised.matchAll(WORD)) {
    const token = match[0];
    if (token.length >= minLength) tokens.push(token);
  }
  return tokens;
}
