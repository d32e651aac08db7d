import { canonicalize, type QueryHandling } from '../url';
import type { ExtractedLink } from './types';

/** Where a `favicon.ico` link was found: no element names it, the site's root is where a browser looks. */
export const FAVICON_SOURCE = 'implied@favicon';

/**
 * The `/favicon.ico` of the origin of `pageUrl`, as a requisite of the page: a browser asks for it
 * on every site it shows (and so does a replay of it), whether or not the page names an icon.
 * Null when the URL has no origin to ask.
 */
export function faviconLink(pageUrl: string, opts: { queryHandling?: QueryHandling } = {}): ExtractedLink | null {
  const url = canonicalize('/favicon.ico', pageUrl, opts);
  return url ? { url, kind: 'requisite', source: FAVICON_SOURCE, anchorText: '', context: '' } : null;
}

/**
 * Whether an error answer (4xx, 5xx) is a document a browser renders, and so asks its origin's icon
 * for, as a replay of it does: an HTML body, a custom "not found" or "back soon" page. One without
 * HTML (plain text, an empty body) shows the browser's own error page, which asks for none; a
 * redirect renders nothing (the page it leads to asks for its own origin's). A 2xx page's kind is
 * the link extraction's to tell.
 */
export function errorPageRenders(status: number, contentType: string, bodyBytes: number): boolean {
  return status >= 400 && bodyBytes > 0 && /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i.test(contentType);
}
