/**
 * Tokenisation: Unicode-normalised (NFKC), lower-cased runs of letters (with their combining
 * marks, so Devanagari or decomposed accents stay inside a word). Digits and punctuation split.
 */

const WORD = /[\p{L}\p{M}]+/gu;

/** Splits a text into lower-case word tokens of at least `minLength` characters (default 2). */
export function tokenize(text: string, minLength = 2): string[] {
  const tokens: string[] = [];
  eachToken(text, minLength, (token) => tokens.push(token));
  return tokens;
}

/** Calls `visit` with each token of `text`, in order (what tokenize returns, without the array). */
export function eachToken(text: string, minLength: number, visit: (token: string) => void): void {
  if (!asciiTokens(text, minLength, visit)) unicodeTokens(text, minLength, visit);
}

/**
 * Most crawled text is ASCII, where letters are a–z once lower-cased and NFKC changes nothing: a
 * character loop is a third faster than the Unicode regex. It first checks the whole text, so
 * that it visits nothing when it returns false (the text has a non-ASCII character).
 */
function asciiTokens(text: string, minLength: number, visit: (token: string) => void): boolean {
  if (!ASCII.test(text)) return false;
  const lower = text.toLowerCase();
  let start = -1;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c >= 97 && c <= 122) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= minLength) visit(lower.slice(start, i));
    start = -1;
  }
  if (start >= 0 && lower.length - start >= minLength) visit(lower.slice(start));
  return true;
}

const ASCII = /^[\x00-\x7f]*$/;

function unicodeTokens(text: string, minLength: number, visit: (token: string) => void): void {
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    if (match[0].length >= minLength) visit(match[0]);
  }
}
