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

/** A download name for a payload: the URL's last path segment, else its host; never a path. */
export function payloadFileName(url: string): string {
  let name = '';
  try {
    const u = new URL(url);
    name = decodeURIComponent(u.pathname.split('/').filter(Boolean).at(-1) ?? '') || u.hostname;
  } catch {
    name = '';
  }
  const safe = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_').slice(0, 120);
  return safe || 'payload';
}
