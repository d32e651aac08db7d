import { addressClass, addressRefusal, type AddressClass } from './address-class';
import type { ResolveResult } from './dns-cache';

/** Why the crawl must not connect to an IP address, or null (addressRefusal), asked where the address is used. */
export type AddressGuard = (ip: string) => Promise<string | null>;

/**
 * The crawl's guard against reaching its own network: `seedHosts` are resolved once, on the first
 * address that is not public, through `resolve` (the crawl's resolver), and their classes decide
 * which networks the crawl is a crawl of.
 */
export function createAddressGuard(o: { allowPrivateAddresses: boolean; seedHosts: readonly string[]; resolve(host: string): Promise<ResolveResult> }): AddressGuard {
  let seedClasses: Promise<ReadonlySet<AddressClass>> | null = null;
  const classesOfSeeds = async () => {
    const answers = await Promise.all([...new Set(o.seedHosts)].map((host) => o.resolve(host)));
    return new Set(answers.flatMap((a) => ('ip' in a ? [addressClass(a.ip)] : [])));
  };
  return async (ip) => {
    if (o.allowPrivateAddresses || addressClass(ip) === 'public') return null;
    return addressRefusal(ip, { allowPrivateAddresses: false, seedClasses: await (seedClasses ??= classesOfSeeds()) });
  };
}
