/** How a stored record is shown in the cockpit: pure helpers of the capture-record route. */

/** Bytes of a textual payload shown inline; the rest is downloaded. */
export const PREVIEW_BYTES = 64 * 1024;

const TEXTUAL = /^(text\/|application\/(xhtml\+xml|xml|json|javascript|ecmascript|rss\+xml|atom\+xml|ld\+json|feed\+json)\b|image\/svg\+xml)/i;

/** The start of a textual payload as UTF-8 (invalid bytes replaced), or null for other types. */
export function textPreview(mime: string | null, payload: Uint8Array): { preview: string | null; truncated: boolean } {
  if (!mime || !TEXTUAL.test(mime.trim())) return { preview: null, truncated: false };
  const shown = payload.subarray(0, PREVIEW_BYTES);
  // A multi-byte character cut at the end would show as one replacement character: harmless.
  return { preview: new TextDecoder('utf-8').decode(shown), truncated: payload.byteLength > PREVIEW_BYTES };
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
