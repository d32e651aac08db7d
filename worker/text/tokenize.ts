/**
 * Tokenisation: Unicode-normalised (NFKC), lower-cased runs of letters (with their combining
 * marks, so Devanagari or decomposed accents stay inside a word). Digits and punctuation split.
 * Chinese, Japanese and Korean runs give overlapping character pairs (see {@link CJK}).
 */

const WORD = /[\p{L}\p{M}]+/gu;

/**
 * Han, kana (with the long-vowel mark ー their Script_Extensions include) and Hangul. Chinese and
 * Japanese put no space between words, so a run of them is a clause, and a keyword (選挙) never
 * equalled one: such runs are indexed as overlapping pairs (東京都 → 東京, 京都), as Lucene's
 * CJKAnalyzer does; a keyword's own pairs then meet the page's. Hangul too: Korean attaches
 * particles to its words (선거에서).
 */
const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+/gu;

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
  for (const [word] of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    let from = 0;
    for (const run of word.matchAll(CJK)) {
      wordToken(word.slice(from, run.index), minLength, visit);
      // By code point: an ideograph beyond the BMP (𠮟) is two UTF-16 units.
      const chars = [...run[0]];
      if (chars.length === 1) wordToken(run[0], minLength, visit);
      for (let i = 0; i + 2 <= chars.length; i++) visit(chars[i] + chars[i + 1]);
      from = run.index + run[0].length;
    }
    wordToken(from ? word.slice(from) : word, minLength, visit);
  }
}

function wordToken(token: string, minLength: number, visit: (token: string) => void): void {
  if (token.length >= minLength) visit(token);
}
