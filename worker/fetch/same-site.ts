import { parseHttpUrl } from '../url/canonicalize';
import { payLevelDomainOf } from '../url/host';
import { isRequisiteKind } from '../url/scope';

/** How a browser would ask for a URL, for the SameSite attribute of cookies (RFC 6265bis §5.2). */
export type SameSiteContext = 'strict' | 'lax' | 'none';

/**
 * A URL's site as cookies see it (schemeful same-site): its scheme and registrable domain (an IP
 * address or a host without a public suffix is its own), or null when it does not parse.
 */
export function siteOf(url: string): string | null {
  const parsed = parseHttpUrl(url);
  return parsed ? `${parsed.protocol}//${payLevelDomainOf(parsed.hostname)}` : null;
}

/**
 * The context a browser would send a request in, from the page the URL was found on (`via`) and
 * how it was found (the frontier's link kind). A URL found on no page (a seed, typed in) or on a page
 * of its own site: same-site, every cookie. Cross-site, a page's link is a top-level navigation
 * (SameSite=Lax and None cookies) and a requisite (image, script, stylesheet, frame) a subresource
 * (None only). A redirect's target counts as a navigation found on the URL that redirected to it
 * (its lease's page): a browser would judge it from the page that started the chain.
 */
export function sameSiteContext(url: string, via: string | null | undefined, kind: string | undefined): SameSiteContext {
  if (!via) return 'strict';
  const site = siteOf(url);
  if (site !== null && site === siteOf(via)) return 'strict';
  return isRequisiteKind(kind) ? 'none' : 'lax';
}
