import { isIPv4, isIPv6 } from 'node:net';

/**
 * What kind of network an IP address is on. Everything but `public` is the network the crawler
 * itself runs in (its own host, an intranet, a cloud's metadata service), which a crawled page must
 * not make it reach.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'carrier-grade-nat';

/** An IPv4 address's class; `octets` are its four bytes. */
function ipv4Class([a, b]: number[]): AddressClass {
  if (a === 0) return 'unspecified'; // 0.0.0.0/8: "this network"; a connection to 0.0.0.0 reaches the host itself
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 100 && b! >= 64 && b! <= 127) return 'carrier-grade-nat';
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad counts as two), or null. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const groups = tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * The class of an IP address as a resolver or a URL gives it: IPv4, IPv6 (a zone index ignored),
 * and IPv4 addresses carried in IPv6 — mapped (::ffff:127.0.0.1, written ::ffff:7f00:1 by URL
 * parsers), NAT64 (64:ff9b::/96) and the old compatible form (::/96) — classed as the IPv4 address.
 * Anything that is no IP address is `public`: it names no address of the crawler's network.
 */
export function addressClass(address: string): AddressClass {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(ip)) return ipv4Class(ip.split('.').map(Number));
  if (!isIPv6(ip)) return 'public';
  const g = ipv6Groups(ip.toLowerCase());
  if (!g) return 'public';
  const embedsIpv4 = (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && (g[5] === 0xffff || g[5] === 0)) || (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0));
  if (g.slice(0, 7).every((x) => x === 0) && g[7]! <= 1) return g[7] === 1 ? 'loopback' : 'unspecified';
  if (embedsIpv4) return ipv4Class([g[6]! >> 8, g[6]! & 0xff]);
  if ((g[0]! & 0xfe00) === 0xfc00) return 'private'; // fc00::/7, unique local
  if ((g[0]! & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  return 'public';
}

const DESCRIPTION: Record<Exclude<AddressClass, 'public'>, string> = {
  loopback: 'a loopback address (the crawler\'s own host)',
  private: 'a private-network address',
  'link-local': 'a link-local address (where cloud metadata services answer)',
  unspecified: 'an unspecified address (it reaches the crawler\'s own host)',
  'carrier-grade-nat': 'a carrier-grade NAT address',
};

/** What the crawl may reach besides public addresses (scope.allowPrivateAddresses, and the seeds' own networks). */
export interface AddressPolicy {
  allowPrivateAddresses: boolean;
  /** The classes of the addresses the seeds' hosts resolved to. */
  seedClasses: ReadonlySet<AddressClass>;
}

/**
 * Why the crawl must not connect to `ip`, or null when it may. Public addresses: always. Others
 * only with scope.allowPrivateAddresses, or when a seed's host is on an address of the same class
 * (a crawl seeded on 127.0.0.1 or an intranet host is a crawl of that network) — except link-local,
 * where cloud metadata services hand out credentials, which only allowPrivateAddresses allows.
 */
export function addressRefusal(ip: string, policy: AddressPolicy): string | null {
  const cls = addressClass(ip);
  if (cls === 'public' || policy.allowPrivateAddresses) return null;
  if (cls !== 'link-local' && policy.seedClasses.has(cls)) return null;
  return `${ip} is ${DESCRIPTION[cls]}: not requested, so that crawled pages cannot make the crawler reach the network it runs in (the ICD's scope.allowPrivateAddresses: true allows it)`;
}
