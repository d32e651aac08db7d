import { MAX_SEED_REDIRECTS, type ChainCut, type SeedHop, type SeedReportRow } from './seed-chain';
import type { UrlInspection } from './url-inspection';

/** A seed's outcome in the seeds report: each step of its chain in words, and whether it ended on a captured page. */
export interface SeedOutcome {
  steps: string[];
  /** The chain ends on a page fetched with a status below 300. */
  captured: boolean;
  /** It ended on a failure, an exclusion, a cut chain or an answer with no page (4xx, 5xx, 304): the archivist should look. */
  problem: boolean;
}

/** What the crawl did with one URL (a seed's, a redirect's, one looked up), in words; the URL itself is shown beside it. */
export function hopText(hop: Pick<SeedHop, 'state' | 'status' | 'reason'>): string {
  switch (hop.state) {
    case 'done':
      return hop.status === null ? 'fetched' : hop.status < 300 ? `${hop.status}, captured` : `${hop.status}`;
    case 'queued':
      return 'queued';
    case 'in-flight':
      return 'being fetched';
    case 'retrying':
      return `to be tried again${hop.reason ? ` (${hop.reason})` : ''}`;
    case 'failed':
      return `failed: ${hop.reason ?? 'unknown reason'}`;
    case 'excluded':
      return `not followed: ${hop.reason ?? 'excluded'}`;
    default:
      return 'not fetched yet';
  }
}

const CUT_TEXT: Record<ChainCut, string> = {
  loop: 'redirect loop',
  // The report's limit, not the crawl's: the crawl follows redirects as links, within its depth limit.
  'too-many-redirects': `more than ${MAX_SEED_REDIRECTS} redirects in a row: the report follows the chain no further`,
  'no-location': 'redirect without a usable Location',
};

export function seedOutcome(row: SeedReportRow): SeedOutcome {
  const steps = row.hops.map((hop, i) => (i === 0 ? hopText(hop) : `→ ${hop.url}: ${hopText(hop)}`));
  if (row.cut) steps.push(CUT_TEXT[row.cut]);
  const last = row.hops.at(-1)!;
  const captured = row.cut === null && last.state === 'done' && last.status !== null && last.status < 300;
  return { steps, captured, problem: isSeedProblem(row) };
}

/** Whether a seed's chain ended on no capture: cut, or on a failure, an exclusion or an error status (its messages play no part). */
export function isSeedProblem(row: { hops: readonly Pick<SeedHop, 'state' | 'status'>[]; cut: SeedReportRow['cut'] }): boolean {
  const last = row.hops.at(-1)!;
  // An uncut chain ends on no redirect: a 3xx there is a 304, which answered an unconditional request with no page.
  return row.cut !== null || last.state === 'failed' || last.state === 'excluded' || (last.state === 'done' && (last.status ?? 0) >= 300);
}

/** What the crawl made of a URL, in a sentence or two. */
export function inspectionVerdict(i: UrlInspection): string {
  if (i.url === null) return 'This is not an http(s) URL the crawl could fetch.';
  if (i.entry) return `The crawl has seen it: ${hopText(i.entry)}.${seenScopeText(i)}`;
  const scope = i.scope;
  if (scope?.inScope) return 'The crawl has not seen it: no page it fetched links to it (yet), though its scope would take it.';
  const reason = scope?.reason ?? 'out of scope';
  const asRequisite = scope?.takenIf.includes('requisite') ?? false;
  if (scope?.takenIf.includes('extra-hops')) {
    const n = i.extraHops;
    const further = n > 1 ? `, or one at most ${links(n - 1)} outside it,` : '';
    return `The crawl has not seen it. It lies outside the scope (${reason}), but with ${n} extra hop${n === 1 ? '' : 's'} the crawl takes it when a page in the scope${further} links to it: whether it would depends on the page linking to it, which the crawl has not found.${asRequisite ? ' A page using it as a requisite (an image, stylesheet, script…) would have it taken too.' : ''}`;
  }
  return `The crawl has not seen it, and its scope would not take it: ${reason}.${asRequisite ? ' Only as a page requisite (an image, stylesheet, script… of a page it fetches) would it be taken.' : ''}`;
}

/** Where a discovery path starts, in words, by the kind of its first step; the path's heading ends with it. */
const PATH_STARTS: Record<string, string> = {
  seed: ', from its seed',
  feed: ', from a feed of the crawl',
  'robots.txt': ', from a robots.txt',
  // A URL posted to the crawl (POST /api/crawls/:id/urls) is stored so.
  page: ', from a URL posted to the crawl',
};

/** The heading of a URL's discovery path ("How the crawl found it, from its seed"). */
export function discoveryPathHeading(i: Pick<UrlInspection, 'discoveryPath' | 'pathCut'>): string {
  if (i.pathCut) return 'How the crawl found it (the start of the path is not known)';
  return `How the crawl found it${PATH_STARTS[i.discoveryPath[0]?.kind ?? ''] ?? ''}`;
}

const links = (n: number) => `${n} link${n === 1 ? '' : 's'}`;
const OUTSIDE_REASONS = new Set(['out-of-scope-host', 'out-of-surt-scope', 'include-mismatch']);

/** A seen URL and the scope: how far outside it lies and what took it, or, refused as outside, how far out its page lay. */
function seenScopeText(i: UrlInspection): string {
  const entry = i.entry!;
  if (entry.scopeHops !== null && entry.scopeHops > 0 && i.takenAs) {
    const what = i.takenAs === 'requisite' ? 'taken as a page requisite' : `taken within the crawl's ${i.extraHops} extra hop${i.extraHops === 1 ? '' : 's'}`;
    return ` It lies outside the scope, ${links(entry.scopeHops)} from it: ${what}.`;
  }
  if (entry.state === 'excluded' && entry.reason && OUTSIDE_REASONS.has(entry.reason) && i.extraHops > 0 && i.viaScopeHops !== null) {
    const page = i.viaScopeHops === 0 ? 'in the scope' : `${links(i.viaScopeHops)} outside the scope`;
    return ` The page it was found on lies ${page}; the crawl takes at most ${i.extraHops} extra hop${i.extraHops === 1 ? '' : 's'}.`;
  }
  return '';
}
