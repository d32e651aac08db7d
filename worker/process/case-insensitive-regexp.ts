/**
 * Case-insensitive patterns that V8's linear-time engine can take over (see bounded-regexp.ts). No
 * Node.js import: the ICD schema, which the cockpit's form runs in the browser, checks patterns with
 * these too (regexp-safety.ts).
 */

/**
 * `new RegExp(source, 'i')`, as a pattern V8's linear-time engine can take over (see
 * boundRegExpBacktracking): that engine refuses the `i` flag, so a case-insensitive pattern kept
 * backtracking however long it took (`(a|a)*\.html$` with `i`: 7 s on 26 a's, hours on 40). The
 * pattern is rewritten to match the same strings without the flag (foldAsciiCase); one this cannot
 * rewrite exactly keeps the flag. Throws as `new RegExp(source, 'i')` does for an invalid pattern.
 */
export function caseInsensitiveRegExp(source: string): RegExp {
  const withFlag = new RegExp(source, 'i');
  const folded = foldAsciiCase(source);
  return folded === null ? withFlag : new RegExp(folded);
}

const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const bothCases = (c: number) => String.fromCharCode(c | 32, c & ~32);
/** Sorted letter codes as class text, runs as ranges (`ABCDEF` → `A-F`; a run never crosses Z–a). */
function letterRanges(codes: number[]): string {
  let text = '';
  for (let k = 0; k < codes.length; ) {
    let end = k;
    while (end + 1 < codes.length && codes[end + 1] === codes[end]! + 1) end++;
    text += String.fromCharCode(codes[k]!) + (end > k ? '-' + String.fromCharCode(codes[end]!) : '');
    k = end + 1;
  }
  return text;
}
const HEX2 = /^[0-9a-fA-F]{2}$/;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** One escape: its text, the character it stands for (null: a class or an assertion) and where it ends. */
type Escape = { text: string; code: number | null; end: number };

/**
 * `source`, a pattern for the flags `i` (without `u`), rewritten to match exactly the same strings
 * without `i`: every ASCII letter it matches stands for both its cases (`a` → `[aA]`, `[a-f]` →
 * `[A-Fa-f]`). Without `u`, `i` pairs an ASCII letter with its other case only (ECMA-262
 * Canonicalize), so that is all `i` did. Null when the pattern holds what this does not rewrite
 * exactly: non-ASCII characters or escapes of them, octal escapes and backreferences (which the
 * linear engine does not run anyway), `\B` in a class, `\c`, `\x` and `\u` not followed by their digits.
 */
export function foldAsciiCase(source: string): string | null {
  if (/[^\x00-\x7f]/.test(source)) return null;
  const namedGroups = /\(\?<(?![=!])/.test(source);
  const escapeAt = (i: number, inClass: boolean): Escape | null => {
    const next = source[i + 1];
    if (next === undefined) return null;
    const one = (code: number | null): Escape => ({ text: '\\' + next, code, end: i + 2 });
    if ('dDwWsS'.includes(next)) return one(null);
    if (next === 'b') return one(inClass ? 8 : null);
    if (next === 'B') return inClass ? null : one(null);
    const control = ({ f: 12, n: 10, r: 13, t: 9, v: 11 } as Record<string, number>)[next];
    if (control !== undefined) return one(control);
    if (next === '0') return /[0-9]/.test(source[i + 2] ?? '') ? null : one(0);
    if (next >= '1' && next <= '9') return null;
    if (next === 'c') {
      const letter = source.charCodeAt(i + 2);
      return isAsciiLetter(letter) ? { text: source.slice(i, i + 3), code: letter % 32, end: i + 3 } : null;
    }
    if (next === 'x' || next === 'u') {
      const digits = source.slice(i + 2, i + (next === 'x' ? 4 : 6));
      if (!(next === 'x' ? HEX2 : HEX4).test(digits)) return null;
      const code = parseInt(digits, 16);
      return code > 0x7f ? null : { text: source.slice(i, i + 2 + digits.length), code, end: i + 2 + digits.length };
    }
    if (next === 'k' && namedGroups) return null;
    // Any other escaped character stands for itself (an identity escape: `\.`, `\/`, or `\p` for p).
    return one(next.charCodeAt(0));
  };

  let out = '';
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\\') {
      const esc = escapeAt(i, false);
      if (!esc) return null;
      out += esc.code !== null && isAsciiLetter(esc.code) ? `[${bothCases(esc.code)}]` : esc.text;
      i = esc.end;
    } else if (ch === '[') {
      let j = i + 1;
      const negated = source[j] === '^';
      if (negated) j++;
      const bodyStart = j;
      const atoms: { text: string; code: number | null }[] = [];
      while (j < source.length && source[j] !== ']') {
        if (source[j] === '\\') {
          const esc = escapeAt(j, true);
          if (!esc) return null;
          atoms.push(esc);
          j = esc.end;
        } else {
          atoms.push({ text: source[j]!, code: source.charCodeAt(j) });
          j++;
        }
      }
      if (j >= source.length) return null;
      // The letters the class holds, singly or in ranges (`a-z`; `\d-z` is three atoms), in their other case.
      const extra = new Set<number>();
      const addOtherCases = (lo: number, hi: number) => {
        for (let c = lo; c <= hi; c++) if (isAsciiLetter(c)) extra.add(c ^ 32);
      };
      for (let k = 0; k < atoms.length; k++) {
        const from = atoms[k]!.code;
        const to = atoms[k + 2]?.code;
        if (from !== null && atoms[k + 1]?.text === '-' && to !== null && to !== undefined) {
          addOtherCases(from, to);
          k += 2;
        } else if (from !== null) addOtherCases(from, from);
      }
      const body = source.slice(bodyStart, j);
      // Letters first; a leading '-' of the class would otherwise join the last of them into a range.
      const added = letterRanges([...extra].sort((a, b) => a - b));
      out += '[' + (negated ? '^' : '') + added + (added && body.startsWith('-') ? '\\' : '') + body + ']';
      i = j + 1;
    } else if (source.startsWith('(?<', i) && !'=!'.includes(source[i + 3] ?? '')) {
      // A group's name is not text to match.
      const close = source.indexOf('>', i);
      if (close < 0) return null;
      out += source.slice(i, close + 1);
      i = close + 1;
    } else {
      const code = source.charCodeAt(i);
      out += isAsciiLetter(code) ? `[${bothCases(code)}]` : ch;
      i++;
    }
  }
  try {
    new RegExp(out);
  } catch {
    return null;
  }
  return out;
}
