/** How a stored record is shown in the cockpit: pure helpers of the capture-record route. */

import { decodeBytes, sniffCharset } from '../../../worker/extract/charset';

/** Bytes of a textual payload shown inline; the rest is downloaded. */
export const PREVIEW_BYTES = 64 * 1024;

const TEXTUAL = /^(text\/|application\/(xhtml\+xml|xml|json|javascript|ecmascript|rss\+xml|atom\+xml|ld\+json|feed\+json)\b|image\/svg\+xml)/i;

/**
 * The start of a textual payload, or null for other types. It is decoded as the crawler read it
 * (BOM, the Content-Type's charset, a `<meta charset>` or XML declaration, else UTF-8 or
 * windows-1252), with invalid bytes replaced. `contentType` is the response's header, or the
 * capture's MIME type when the record has none.
 */
export function textPreview(contentType: string | null, payload: Uint8Array): { preview: string | null; truncated: boolean } {
  if (!contentType || !TEXTUAL.test(contentType.trim())) return { preview: null, truncated: false };
  // Sniffed over the whole payload: a cut at PREVIEW_BYTES may split a UTF-8 character.
  const encoding = sniffCharset(payload, contentType);
  const shown = payload.subarray(0, PREVIEW_BYTES);
  // A multi-byte character cut at the end shows as one replacement character: harmless.
  return { preview: decodeBytes(shown, encoding), truncated: payload.byteLength > PREVIEW_BYTES };
}

/** A download name for a payload: the URL's last path segment (its escapes decoded where they decode), else its host; never a path. */
export function payloadFileName(url: string): string {
  let name = '';
  try {
    const u = new URL(url);
    name = decodeEscapes(u.pathname.split('/').filter(Boolean).at(-1) ?? '') || u.hostname;
  } catch {
    name = '';
  }
  const safe = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_').slice(0, 120);
  return safe || 'payload';
}

/**
 * A URL segment with its percent-escapes decoded where they spell UTF-8, the rest kept as written:
 * decodeURIComponent refuses the whole segment for one `%` that starts no escape (`100%-report.pdf`,
 * `a%zz.pdf`) or one byte of another charset (`%E9`), and such a payload lost its name. Each run of
 * escapes is decoded whole, else its longest decodable pieces from the left.
 */
function decodeEscapes(segment: string): string {
  return segment.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    const escapes = run.match(/%../g)!;
    let out = '';
    for (let i = 0; i < escapes.length; ) {
      // A UTF-8 character is 1 to 4 bytes: the longest that decodes from here, else this escape as written.
      const n = [4, 3, 2, 1].find((len) => i + len <= escapes.length && decodes(escapes.slice(i, i + len).join('')));
      out += n ? decodeURIComponent(escapes.slice(i, i + n).join('')) : escapes[i];
      i += n ?? 1;
    }
    return out;
  });
}

function decodes(escapes: string): boolean {
  try {
    decodeURIComponent(escapes);
    return true;
  } catch {
    return false;
  }
}
