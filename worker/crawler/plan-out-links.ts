import type { ExclusionReason } from '../capture';
import { unexpandedDtdNote, type ExtractedLink, type ResponseKind, type UnexpandedDtd } from '../extract';
import { seenKey, type Candidate, type Rejected } from '../frontier';
import { checkScope, hostKeyOf, type CompiledScope, type TrapDetector } from '../url';
import type { CrawlItem, OutLink } from './stage';
import { eachInSlices } from './event-loop-slices';

/** What the schedule stage hands the commit: new candidates and rejected URLs with reasons. */
export interface OutLinkPlan {
  candidates: Candidate[];
  rejected: Rejected[];
}

export interface ScopeInput {
  /** The ICD's scope compiled once (regexes, seed hosts). */
  scope: CompiledScope;
  /** Priority of links when focused crawling gives none: equal, so the frontier goes breadth-first. */
  defaultPriority: number;
}

/** URLs one sitemap may list (sitemaps.org protocol), whatever scope.maxOutLinksPerPage says. */
export const SITEMAP_MAX_URLS = 50_000;

/** A cut sitemap line (or XML value) is quoted in the crawl log up to this many characters. */
const CUT_LINE_SHOWN = 200;

/**
 * A response's links as the crawl takes them: the first `max` in document order (the ICD's
 * scope.maxOutLinksPerPage; a sitemap's, up to SITEMAP_MAX_URLS), and a crawl-log note on the
 * rest, on a text sitemap's last line left out as possibly cut and on an XML sitemap's last value
 * left out as the document ends inside it, and on a sitemap's or feed's DOCTYPE whose entities or
 * external DTD were neither expanded nor fetched (unexpandedDtdNote); null when there is none of these.
 */
export function outLinksOf(
  response: { kind: ResponseKind; links: readonly ExtractedLink[]; linksLeftOut?: number; sitemapCutLine?: string; sitemapCutValue?: { element: string; text: string }; unexpandedDtd?: UnexpandedDtd },
  max: number,
): { links: OutLink[]; note: string | null } {
  const cap = response.kind === 'sitemap' ? Math.max(max, SITEMAP_MAX_URLS) : max;
  const links = response.links.slice(0, cap).map((l) => ({ url: l.url, kind: l.kind, anchorText: l.anchorText, context: l.context, source: l.source, ...(l.role ? { role: l.role } : {}) }));
  // The extractor leaves out the links of an HTML page past the same cap (HtmlExtractOptions.maxLinks).
  const left = response.links.length - links.length + (response.linksLeftOut ?? 0);
  const rule = cap === max ? 'scope.maxOutLinksPerPage' : `a sitemap lists at most ${SITEMAP_MAX_URLS.toLocaleString('en')} URLs`;
  const line = response.sitemapCutLine;
  const value = response.sitemapCutValue;
  const notes = [
    left > 0 ? `${left} links past the first ${cap} not followed (${rule})` : null,
    line ? `last line of the sitemap not followed, as the body was cut short or its content coding damaged: ${quoteCut(line)}` : null,
    value ? `last <${value.element}> of the sitemap ${value.element === 'loc' ? 'not followed' : 'left out'}, as the document ends inside it (the body cut short, its content coding damaged or its closing tag missing): ${quoteCut(value.text)}` : null,
    response.unexpandedDtd ? unexpandedDtdNote(response.kind, response.unexpandedDtd) : null,
  ].filter((n) => n !== null);
  return { links, note: notes.length ? notes.join('; ') : null };
}

/** A sitemap's cut line or value as the crawl log quotes it: JSON, CUT_LINE_SHOWN characters at most. */
function quoteCut(text: string): string {
  return JSON.stringify(text.length > CUT_LINE_SHOWN ? `${text.slice(0, CUT_LINE_SHOWN)}…` : text);
}

/**
 * Turns a page's out-links into frontier candidates: already-rejected links (AAH, spam) keep their
 * reason; the rest go through scope rules and trap detection. Requisites (images, CSS, scripts,
 * frames) may lie past the depth limit within a few embed hops of their page (item.embedHops), so
 * pages at the limit are still archived whole; the redirects a requisite answers are taken as
 * requisites (item.requisiteRedirects).
 * URLs the frontier already holds (`known`, given each link's URL and kind) passed those checks when first found: they only
 * carry a new score to it, and a rejection would change nothing for them.
 * Pure apart from the trap detector's per-host memory.
 */
export function planOutLinks(item: CrawlItem, input: ScopeInput, traps: TrapDetector, known: (url: string, kind: string) => boolean = () => false): OutLinkPlan {
  const planner = outLinkPlanner(item, input, traps, known);
  for (const link of item.links ?? []) planner.take(link);
  return planner.plan;
}

/**
 * Links planned between two turns of the event loop (planOutLinksInSlices): ~5 ms of work, as
 * 20,000 links of a sitemap took ~180–210 ms to plan in one piece (bench/README.md).
 */
export const PLAN_SLICE_LINKS = 500;

/**
 * planOutLinks, `sliceLinks` links at a time, with a turn of the event loop between two slices:
 * the same plan, in the same order (a URL repeated in a later slice is still planned once).
 */
export async function planOutLinksInSlices(
  item: CrawlItem, input: ScopeInput, traps: TrapDetector, known: (url: string, kind: string) => boolean = () => false, sliceLinks = PLAN_SLICE_LINKS,
): Promise<OutLinkPlan> {
  const planner = outLinkPlanner(item, input, traps, known);
  await eachInSlices(item.links ?? [], sliceLinks, planner.take);
  return planner.plan;
}

/**
 * The plan of a page's links, taken one at a time; what it has seen spans every call. A URL is
 * planned once, at its first link. So is a URL under other session ids, at its first link of a
 * kind: the frontier's seen-set takes them for one URL (seenKey), so the others would only be found
 * seen there, after counting as query variants of their path for the trap detector (50 sessions of
 * `?page=1` made `?page=2` a trap) and, in a focused crawl, rescoring it once each. One of another
 * kind (a page link, then an image) is planned too, as the frontier decides between kinds.
 */
function outLinkPlanner(item: CrawlItem, input: ScopeInput, traps: TrapDetector, known: (url: string, kind: string) => boolean): { plan: OutLinkPlan; take(link: OutLink): void } {
  const plan: OutLinkPlan = { candidates: [], rejected: [] };
  const depth = item.depth + 1;
  const seen = new Set<string>();
  /** The kinds and seen keys planned, `kind seenKey`. */
  const seenAsKind = new Set<string>();
  const take = (link: OutLink): void => {
    if (seen.has(link.url)) return;
    seen.add(link.url);
    const kind = frontierKindOf(link);
    const keyOfKind = `${kind} ${seenKey(link.url)}`;
    if (seenAsKind.has(keyOfKind)) return;
    seenAsKind.add(keyOfKind);
    const host = hostKeyOf(link.url);
    if (known(link.url, kind)) {
      if (!link.excludedReason) plan.candidates.push(candidateOf(link, kind, host, depth, item.url, input));
      return;
    }
    const reject = (reason: ExclusionReason, withinScopeShallower?: boolean) =>
      plan.rejected.push({ url: link.url, host, reason, depth, viaUrl: item.url, kind, ...(withinScopeShallower ? { withinScopeShallower } : {}) });
    if (link.excludedReason) {
      reject(link.excludedReason as ExclusionReason);
      return;
    }
    const requisiteRedirect = link.kind === 'redirect' && item.requisiteRedirects != null ? item.requisiteRedirects + 1 : null;
    const proposed = { url: link.url, depth, viaUrl: item.url, viaHops: item.scopeHops, kind, requisiteRedirect, viaEmbeds: item.embedHops };
    const scope = checkScope(proposed, input.scope);
    if (!scope.inScope) {
      // Too deep here: would a page nearer the seeds take it? Then a link from one may (Frontier.exclude).
      reject(scope.reason, scope.reason === 'max-depth' && checkScope({ ...proposed, depth: 0 }, input.scope).inScope);
      return;
    }
    const trap = traps.check(link.url, item.url);
    if (trap) {
      reject(trap);
      return;
    }
    plan.candidates.push({ ...candidateOf(link, kind, host, depth, item.url, input), scopeHops: scope.hops });
  };
  return { plan, take };
}

/** The kind the frontier keeps of a link: a requisite's role (an import, a manifest) when it has one, else its link kind. */
export function frontierKindOf(link: Pick<OutLink, 'kind' | 'role'>): string {
  return link.kind === 'requisite' && link.role ? link.role : link.kind;
}

function candidateOf(link: OutLink, kind: string, host: string, depth: number, viaUrl: string, input: ScopeInput): Candidate {
  return {
    url: link.url, host, depth, priority: link.priority ?? input.defaultPriority, viaUrl, kind,
    ...(link.breakdown ? { breakdown: link.breakdown } : {}),
  };
}
