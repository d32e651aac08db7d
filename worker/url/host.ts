import { getDomain } from 'tldts';
import { canonicalize, parseHttpUrl } from './canonicalize';

/**
 * Host helpers. The host key (host name plus any non-default port) is the unit of the frontier's
 * per-host queues; the pay-level domain (registrable domain from the Public Suffix List, via
 * tldts) groups hosts that belong to one owner, e.g. for partitioning between workers.
 */

/**
 * The frontier's host key of a URL: lower-case host name with a non-default port
 * (`example.org`, `127.0.0.1:8080`). Unparseable input gives ''.
 */
export function hostKeyOf(url: string): string {
  return parseHttpUrl(url)?.host ?? '';
}

/** The lower-case host name of a URL (no port), or '' when it does not parse. */
export function hostnameOf(url: string): string {
  return parseHttpUrl(url)?.hostname ?? '';
}

/**
 * The pay-level (registrable) domain of a URL or host name: `news.bbc.co.uk` → `bbc.co.uk`.
 * IP addresses and hosts without a public suffix (`localhost`) are their own pay-level domain.
 */
export function payLevelDomainOf(urlOrHost: string): string {
  const hostname = urlOrHost.includes('/') ? hostnameOf(urlOrHost) : urlOrHost.toLowerCase().replace(/:\d+$/, '');
  if (!hostname) return '';
  // Private suffixes (github.io, blogspot.com) separate owners, which is what a PLD is for.
  return getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;
}

/**
 * The host name an entry of a host list names (an ICD's allowed hosts, its spam blacklist), as
 * canonical URLs write it. Archivists paste URLs there (`https://media.example.org/`) or add a port
 * or path; compared as written, such an entry matched no URL and the host stayed out of scope (or
 * off the blacklist) without a word. So did a name in its own script (`bücher.example`: URLs hold it
 * in punycode), one with the root's trailing dot, and an IPv6 address without its brackets. An entry
 * that is no host name is kept as written.
 */
export function listedHostName(entry: string): string {
  const trimmed = entry.trim().toLowerCase();
  const url = canonicalize(trimmed.includes('://') ? trimmed : `http://${bracketedIpv6(trimmed)}`);
  return (url && hostnameOf(url)) || trimmed;
}

/**
 * An IPv6 address written bare (`::1`, `2001:DB8::1`) in brackets, as a URL's host writes it
 * (`[::1]`); anything else as it is. Bare, it was read as no host, and matched no URL.
 */
function bracketedIpv6(entry: string): string {
  return entry.includes(':') && !entry.includes('[') && URL.canParse(`http://[${entry}]/`) ? `[${entry}]` : entry;
}

/** Host name without a leading `www.` / `www2.` label: how seed hosts are compared. */
export function stripWww(hostname: string): string {
  return hostname.replace(/^www\d*\./, '');
}
