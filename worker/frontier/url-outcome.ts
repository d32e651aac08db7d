import type { ChainCut, SeedHop, SeedReportRow } from './seed-report';
import type { UrlInspection } from './url-inspection';

/** A seed's outcome in the seeds report: each step of its chain in words, and whether it ended on a captured page. */
export interface SeedOutcome {
  steps: string[];
  /** The chain ends on a page fetched with a status below 300. */
  captured: boolean;
  /** It ended on a failure, an exclusion or a cut chain: the archivist should look. */
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
  'too-many-redirects': 'too many redirects, not followed further',
  'no-location': 'redirect without a usable Location',
};

export function seedOutcome(row: SeedReportRow): SeedOutcome {
  const steps = row.hops.map((hop, i) => (i === 0 ? hopText(hop) : `→ ${hop.url}: ${hopText(hop)}`));
  if (row.cut) steps.push(CUT_TEXT[row.cut]);
  const last = row.hops.at(-1)!;
  const captured = row.cut === null && last.state === 'done' && last.status !== null && last.status < 300;
  const problem = row.cut !== null || last.state === 'failed' || last.state === 'excluded' || (last.state === 'done' && (last.status ?? 0) >= 400);
  return { steps, captured, problem };
}

/** What the crawl made of a URL, in one sentence. */
export function inspectionVerdict(i: UrlInspection): string {
  if (i.url === null) return 'This is not an http(s) URL the crawl could fetch.';
  if (i.entry) return `The crawl has seen it: ${hopText(i.entry)}.`;
  if (i.scope?.inScope) return 'The crawl has not seen it: no page it fetched links to it (yet), though its scope would take it.';
  return `The crawl has not seen it, and its scope would not take it: ${i.scope?.reason ?? 'out of scope'}.`;
}
