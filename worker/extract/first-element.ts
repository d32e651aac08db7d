/** Where a document's markup starts: what response classification and feed polls read a root from. */

/**
 * The name of a document's first element, past its XML declaration, processing instructions,
 * comments and doctype (with an internal subset); null when the text holds none or is no markup.
 */
export function firstElementName(text: string): string | null {
  let at = 0;
  for (;;) {
    while (at < text.length && /\s/.test(text[at]!)) at++;
    if (text[at] !== '<') return null;
    const next = text[at + 1];
    let end: number;
    if (next === '?') end = closeOf(text, '?>', at);
    else if (text.startsWith('<!--', at)) end = closeOf(text, '-->', at);
    else if (next === '!') {
      const close = text.indexOf('>', at);
      const subset = text.indexOf('[', at);
      end = subset !== -1 && subset < close ? closeOf(text, ']>', subset) : close === -1 ? -1 : close + 1;
    } else return /^[A-Za-z_][\w.:-]*/.exec(text.slice(at + 1, at + 200))?.[0] ?? null;
    if (end === -1) return null;
    at = end;
  }
}

/** The index just past `close` from `from` on, -1 when it does not come. */
function closeOf(text: string, close: string, from: number): number {
  const at = text.indexOf(close, from);
  return at === -1 ? -1 : at + close.length;
}
