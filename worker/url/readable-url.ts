import { domainToUnicode } from 'node:url';

/**
 * A stored (canonical) URL as a person reads it: its percent-escapes that spell UTF-8 text decoded
 * (`%C3%A9` is `é`; an escape that begins no UTF-8 sequence, `%FF`, stays as written), its host's
 * punycode labels in their script (`xn--bcher-kva` is `bücher`), in Unicode's composed form (NFC).
 * What a typed text is matched against when it holds a letter no stored URL writes as such
 * (store/text-search-sql.ts). Pure.
 */
export function readableUrl(url: string): string {
  return withReadableHost(url.replace(/(?:%[0-9A-Fa-f]{2})+/g, decodeRun)).normalize('NFC');
}

/** A run of escapes decoded: each UTF-8 sequence in it as its character, each other escape as written. */
function decodeRun(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    const escapes = run.match(/%[0-9A-Fa-f]{2}/g)!;
    let out = '';
    for (let i = 0; i < escapes.length; ) {
      const lead = parseInt(escapes[i]!.slice(1), 16);
      const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
      const sequence = length ? escapes.slice(i, i + length).join('') : '';
      let char: string | null = null;
      if (length && i + length <= escapes.length) {
        try {
          char = decodeURIComponent(sequence);
        } catch {
          char = null;
        }
      }
      out += char ?? escapes[i];
      i += char === null ? 1 : length;
    }
    return out;
  }
}

/** `url` with its host's punycode labels decoded (unchanged when it has none). */
function withReadableHost(url: string): string {
  if (!url.toLowerCase().includes('xn--')) return url;
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#:]+)/i.exec(url);
  if (!m) return url;
  const host = domainToUnicode(m[2]!);
  return host ? m[1] + host + url.slice(m[0].length) : url;
}
