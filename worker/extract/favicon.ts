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
