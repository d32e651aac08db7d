import type { PageStatus } from './change-classifier';

const DAY_MS = 86_400_000;

/**
 * Blur of a capture (SHARC, stochastic): the expected number of changes between each page's visit
 * and the reference time, λ·|t − t_ref|, averaged over the pages. 0 for a perfect snapshot. Pages
 * whose rate is unknown (null: robots.txt kept the revisit from being made) are left out, rather
 * than counted as pages that never change. So are pages whose revisit got no answer about them
 * (evidence `unreachable`): a refused connection is no change observed; and those whose visit was
 * cut off (`visit-cut`): nothing whole to compare with; and those answered 304 to a revisit without
 * validators (`unconditional-304`): nothing was asked that the 304 could answer.
 */
export function blur(pages: readonly { rate: number | null; visitedAt: number }[], referenceAt: number): number {
  const rated = pages.filter((p): p is { rate: number; visitedAt: number } => p.rate !== null);
  if (rated.length === 0) return 0;
  return rated.reduce((s, p) => s + (p.rate * Math.abs(p.visitedAt - referenceAt)) / DAY_MS, 0) / rated.length;
}

/** Coherence (deterministic): the share of pages proved unchanged between visit and revisit. */
export function coherence(statuses: readonly PageStatus[]): number {
  if (statuses.length === 0) return 1;
  return statuses.filter((s) => s === 'unchanged').length / statuses.length;
}

/** Why a run's coherence has no value: no page took part. */
export const NO_PAGE_REVISITED = 'no page was visited and revisited';

/** Why a run's blur has no value although pages took part: none has a change rate. */
export const NO_PAGE_RATED = 'no revisited page has a change rate (no revisit was made, or none got an answer about its page)';

export interface CoherenceSummary {
  pages: number;
  byStatus: Record<PageStatus, number>;
  /** Null when no page was visited and revisited: the share of an empty set is no measure. */
  coherence: number | null;
  /** Null when no page has a change rate (none took part, or no revisit was made or answered). */
  blur: number | null;
  /** Why each metric that is null has no value. */
  unmeasured?: { coherence?: string; blur?: string };
  referenceTime: string;
}

/**
 * Counts per status, coherence and blur of a set of classified pages. A run over no page has no
 * coherence and no blur (null, with the reason in `unmeasured`), rather than coherence 1 and
 * blur 0, which would certify a perfect capture of nothing.
 */
export function summarise(pages: readonly { status: PageStatus; rate: number | null; visitedAt: number }[], referenceAt: number): CoherenceSummary {
  const byStatus: Record<PageStatus, number> = { unchanged: 0, 'content-changed': 0, 'links-changed': 0, missing: 0 };
  for (const p of pages) byStatus[p.status]++;
  const rated = pages.some((p) => p.rate !== null);
  const unmeasured = {
    ...(pages.length ? {} : { coherence: NO_PAGE_REVISITED }),
    ...(rated ? {} : { blur: pages.length ? NO_PAGE_RATED : NO_PAGE_REVISITED }),
  };
  return {
    pages: pages.length,
    byStatus,
    coherence: pages.length ? coherence(pages.map((p) => p.status)) : null,
    blur: rated ? blur(pages, referenceAt) : null,
    ...(Object.keys(unmeasured).length ? { unmeasured } : {}),
    referenceTime: new Date(referenceAt).toISOString(),
  };
}

/** One page of the certificate: proved unchanged across the reference time. */
export interface CertifiedPage {
  url: string;
  payloadDigest: string;
  textDigest: string;
  visitedAt: string;
  revisitedAt: string;
  evidence: string;
}

export interface CoherenceCertificate {
  format: 'tidemark-coherence-certificate/1';
  crawl: { id: number; name: string };
  referenceTime: string;
  generatedAt: string;
  summary: CoherenceSummary;
  /** Pages proved unchanged between visit and revisit, so unchanged at the reference time. */
  unchanged: CertifiedPage[];
  /** Pages that could not be certified, with their status and the evidence that decided it. */
  notCertified: { url: string; status: PageStatus; evidence: string }[];
}

export interface ClassifiedPage {
  url: string;
  status: PageStatus;
  evidence: string;
  payloadDigest: string;
  textDigest: string;
  visitedAt: number;
  revisitedAt: number;
  /** Changes per day its revisit observed; null when none was made. */
  rate: number | null;
}

/**
 * The coherence certificate written beside the WARC files: every page proved unchanged with its
 * digests and its visit and revisit times, sorted by URL so two runs with the same outcome give
 * byte-identical lists.
 */
export function buildCertificate(crawl: { id: number; name: string }, pages: readonly ClassifiedPage[], referenceAt: number, generatedAt: number): CoherenceCertificate {
  const sorted = [...pages].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return {
    format: 'tidemark-coherence-certificate/1',
    crawl,
    referenceTime: new Date(referenceAt).toISOString(),
    generatedAt: new Date(generatedAt).toISOString(),
    summary: summarise(pages, referenceAt),
    unchanged: sorted.filter((p) => p.status === 'unchanged').map((p) => ({
      url: p.url, payloadDigest: p.payloadDigest, textDigest: p.textDigest,
      visitedAt: new Date(p.visitedAt).toISOString(), revisitedAt: new Date(p.revisitedAt).toISOString(), evidence: p.evidence,
    })),
    notCertified: sorted.filter((p) => p.status !== 'unchanged').map((p) => ({ url: p.url, status: p.status, evidence: p.evidence })),
  };
}
