/** Isolate initiators (LRI, RLI, FSI) and their terminator, PDI. */
const INITIATORS = new Set(['\u2066', '\u2067', '\u2068']);
const PDI = '\u2069';

/**
 * `text` (a name, a title: anything users or crawled pages wrote) between U+2068 FIRST STRONG
 * ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, for plain text that cannot hold a <bdi>: an
 * <option>, a confirm dialog. Without it a right-to-left override (U+202E) in an ICD's name
 * reversed what followed it in the same line (the crawl picker showed "#12" as "21#"). The text's
 * own isolates are balanced first: a stray PDI in it would end the isolate early, an initiator left
 * open would take the closing PDI for itself.
 */
export function isolate(text: string): string {
  let depth = 0;
  let inner = '';
  for (const ch of text) {
    if (INITIATORS.has(ch)) depth++;
    else if (ch === PDI) {
      if (depth === 0) continue;
      depth--;
    }
    inner += ch;
  }
  return `\u2068${inner}${PDI.repeat(depth)}${PDI}`;
}
