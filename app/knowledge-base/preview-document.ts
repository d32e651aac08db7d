/**
 * What the knowledge-base tester's preview may load: nothing from the network. Inline styles and
 * images inlined as data: URLs still show; the page's stylesheets, images, fonts, media, frames,
 * prefetches are never requested, so the site cannot learn that (and from where, by the Referer)
 * an archivist is looking at it.
 */
export const PREVIEW_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * The pasted page with its frames emptied (src: about:blank; the elements stay, for rules that
 * select them): Chromium opens a connection to a frame's site before the CSP refuses the frame.
 * Parsed by DOMParser, whose documents load nothing; as pasted where there is none (the server's render).
 */
function withoutFrameSources(html: string): string {
  if (typeof DOMParser === 'undefined') return html;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const frames = doc.querySelectorAll('iframe[src], frame[src]');
  if (!frames.length) return html;
  for (const frame of frames) frame.setAttribute('src', 'about:blank');
  return doc.documentElement.outerHTML;
}

/**
 * The preview frame's document: the policy first (a CSP meta governs only what is parsed after
 * it), then a base so the pasted page's relative links read as on its site (the outlines' titles,
 * hovering a link), then the page, its frames emptied.
 */
export function previewDocument(html: string, url: string): string {
  return `<meta http-equiv="Content-Security-Policy" content="${PREVIEW_CSP}"><base href="${url.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">${withoutFrameSources(html)}`;
}
