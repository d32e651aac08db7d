import { domainToASCII } from 'node:url';
import { canonicalize, parseHttpUrl } from './canonicalize';

/**
 * SURT (Sort-friendly URI Reordering Transform) forms of a URL:
 *
 * - `toSurt`: Heritrix's full form, `http://(org,example,www,)/path?q`, used for scope prefixes:
 *   a prefix such as `http://(org,example,` covers every host under example.org.
 * - `surtKey`: the CDXJ index key pywb looks captures up by, `org,example)/path?q`: scheme and
 *   `www` dropped, everything lower case, query parameters sorted.
 */

function reversedHost(hostname: string): string {
  return hostname.split('.').reverse().join(',');
}

/** Heritrix-style SURT of a URL: `http://(org,example,www,:8080)/path?q`. Unparseable → ''. */
export function toSurt(url: string): string {
  const canonical = canonicalize(url);
  const parsed = canonical ? parseHttpUrl(canonical) : null;
  if (!parsed) return '';
  const port = parsed.port ? `:${parsed.port}` : '';
  return `${parsed.protocol}//(${reversedHost(parsed.hostname)},${port})${parsed.pathname}${parsed.search}`;
}

/**
 * The CDXJ/pywb index key: `org,example)/path?a=1&b=2`. Matches warcio's `getSurt`: `www`, `www2`…
 * dropped, lower case, query parameters sorted, fragment and default port dropped.
 */
export function surtKey(url: string): string {
  const canonical = canonicalize(url);
  const parsed = canonical ? parseHttpUrl(canonical) : null;
  if (!parsed) return url.toLowerCase();
  const host = reversedHost(parsed.hostname.replace(/^www\d*\./, ''));
  const port = parsed.port ? `:${parsed.port}` : '';
  const query = parsed.search.length > 1 ? `?${parsed.search.slice(1).split('&').filter(Boolean).sort().join('&')}` : '';
  return `${host}${port})${parsed.pathname}${query}`.toLowerCase();
}

/**
 * The SURT prefix a seed implies (Heritrix's rule): its SURT up to the last `/` of the path, so
 * `http://example.org/blog/post` gives `http://(org,example,)/blog/`. A string already in SURT form
 * (containing `(`) is returned as is, its scheme and host in lower case; without a scheme (a URL or a
 * SURT prefix), `http://` is assumed. '' when it is neither.
 */
export function surtPrefixOf(urlOrPrefix: string): string {
  // A Heritrix SURT-prefix file marks prefixes with a leading '+'; a prefix written without its
  // scheme (`(org,example,)/news`, the cockpit form's example) is an http one (https compares equal).
  let trimmed = urlOrPrefix.trim().replace(/^\+\s*/, '');
  if (trimmed.startsWith('(')) trimmed = `http://${trimmed}`;
  else if (trimmed && !trimmed.includes('://')) trimmed = `http://${trimmed}`;
  if (trimmed.includes('://(')) {
    // Scheme and host are case-insensitive; the path is not.
    const close = trimmed.indexOf(')');
    const head = asciiSurtHost(close < 0 ? trimmed : trimmed.slice(0, close));
    return close < 0 ? head : head + trimmed.slice(close);
  }
  const surt = toSurt(trimmed);
  if (!surt) return '';
  const withoutQuery = surt.split('?', 1)[0];
  return withoutQuery.slice(0, withoutQuery.lastIndexOf('/') + 1);
}

/**
 * The scheme and host of a SURT prefix (`http://(example,bücher,`) in lower case, each label in a
 * script of its own in punycode (`xn--bcher-kva`), as toSurt writes the hosts of URLs: written in
 * its script, the prefix matched no URL.
 */
function asciiSurtHost(head: string): string {
  const lower = head.toLowerCase();
  if (/^[\x00-\x7f]*$/.test(lower)) return lower;
  const open = lower.indexOf('(') + 1;
  const labels = lower.slice(open).split(',').map((label) => (/^[\x00-\x7f]*$/.test(label) ? label : domainToASCII(label) || label));
  return lower.slice(0, open) + labels.join(',');
}

/** https and http share a prefix, as in Heritrix, so a site that moved to TLS stays in scope. */
function forComparison(surt: string): string {
  return surt.startsWith('https://') ? `http://${surt.slice(8)}` : surt;
}

/**
 * Whether a URL falls under a SURT prefix (given in SURT form, or as a plain URL from which the
 * prefix is derived with `surtPrefixOf`). Callers checking many URLs should derive the prefix once.
 */
export function matchesSurtPrefix(url: string, prefix: string): boolean {
  const surt = toSurt(url);
  const p = surtPrefixOf(prefix);
  if (!surt || !p) return false;
  return surtHasPrefix(surt, p);
}

/** Prefix test on SURT strings already computed (`toSurt`, `surtPrefixOf`), https taken as http. */
export function surtHasPrefix(surt: string, prefix: string): boolean {
  return prefix.length > 0 && forComparison(surt).startsWith(forComparison(prefix));
}
