import type { ExclusionReason } from '../capture';
import { hostnameOf, listedHostName, stripWww } from './host';
import { surtHasPrefix, surtPrefixOf, toSurt } from './surt';

/** The scope rules `checkScope` reads: a subset of the ICD's `scope` (worker/icd/schema.ts). */
export interface ScopeRules {
  allowedHosts: readonly string[];
  surtPrefixes: readonly string[];
  include: readonly string[];
  exclude: readonly string[];
  maxDepth: number;
  maxUrlLength: number;
  includeRequisites: boolean;
  /**
   * Browsertrix's extra hops, Heritrix's transitive hops (0–3): a URL outside the host scope or the
   * include patterns is taken when an in-scope page reaches it through at most this many
   * consecutive out-of-scope links; a redirect completing such a hop is not one more. Exclude
   * patterns, depth and traps still apply. 0 (none) when absent.
   */
  extraHops?: number;
}

/** A URL proposed for the frontier. `kind` is the link kind ('navigation', 'requisite', …). */
export interface ScopeCandidate {
  url: string;
  depth: number;
  viaUrl?: string;
  /**
   * Out-of-scope hops of the page at `viaUrl` (its decision's `hops`, as the frontier stored it).
   * Unknown (a URL the frontier stored before it kept the count): 0 when that page is in scope,
   * else 1, the only count such a page could have then.
   */
  viaHops?: number | null;
  kind: string;
  /**
   * For a redirect (kind 'redirect'): its place in a chain of redirects that began at a page
   * requisite (1: the requisite's own redirect; see requisiteRedirectsOf). Absent or null when the
   * chain began at no requisite.
   */
  requisiteRedirect?: number | null;
  /**
   * Embed hops leading to the page at `viaUrl` (embedHopsOf): 0 for a page reached by a link, 1
   * for a page's stylesheet or iframe, and so on; its requisites count on from it. Unknown (absent
   * or null): its requisites may sit only one hop past maxDepth, as before the count.
   */
  viaEmbeds?: number | null;
}

/**
 * Redirects followed from a page requisite (a CDN image to its storage host) as requisites
 * themselves: as many as the seeds report follows (MAX_SEED_REDIRECTS), a polite browser's share.
 */
export const MAX_REQUISITE_REDIRECTS = 10;

/**
 * `hops`: the consecutive out-of-scope links from the scope to the URL (0 when it is in scope),
 * for the URL's own links to count from.
 */
export type ScopeDecision = { inScope: true; hops: number } | { inScope: false; reason: ExclusionReason };

/** Scope rules with regexes compiled and seed hosts/prefixes derived, for checking many URLs. */
export interface CompiledScope {
  rules: ScopeRules;
  hosts: ReadonlySet<string>;
  surtPrefixes: readonly string[];
  include: readonly RegExp[];
  exclude: readonly RegExp[];
}

/**
 * The frontier kind of a part of the requisite it was found in: a module a module imports, a
 * stylesheet a stylesheet `@import`s. A browser loads the whole graph as one script or one
 * stylesheet, so such a part counts no embed hop of its own (embedHopsOf); the seen-set ends its
 * loops and the frontier's depth backstop (deepestTaken) a graph that never ends.
 */
export const IMPORT_KIND = 'import';

/** The frontier kind of a web app manifest its page linked (`<link rel=manifest>`): read as one whatever its type. */
export const MANIFEST_KIND = 'manifest';

/** Frontier kinds of a page requisite: each is one in every way, an import counting no embed hop of its own. */
export const REQUISITE_KINDS: ReadonlySet<string> = new Set(['requisite', IMPORT_KIND, MANIFEST_KIND]);

/** Whether a link (or a frontier row) of `kind` is a page requisite (REQUISITE_KINDS). */
export function isRequisiteKind(kind: string | undefined): boolean {
  return kind !== undefined && REQUISITE_KINDS.has(kind);
}

/** Kinds that may go one hop past maxDepth (Heritrix's transclusions): the page still needs them. */
const oneHopMore = (kind: string) => kind === 'redirect' || isRequisiteKind(kind);

/**
 * Heritrix's maxTransHops: a requisite (image, stylesheet, script, font, frame, iframe; a redirect
 * one answers is that requisite still) at most this many embed hops from the page it hangs from is
 * taken whatever its depth, so a page at the depth limit is archived whole. One more than
 * Heritrix's 2, for page → iframe → its stylesheet → that stylesheet's image.
 */
export const MAX_EMBED_HOPS = 3;

/**
 * The deepest a URL the scope takes may lie, for a crawl limited to `maxDepth`: a page's redirect
 * one hop past it, then MAX_EMBED_HOPS requisites, each with up to MAX_REQUISITE_REDIRECTS
 * redirects (the frontier's backstop; checkScope decides).
 */
export function deepestTaken(maxDepth: number): number {
  return maxDepth + 1 + MAX_EMBED_HOPS * (1 + MAX_REQUISITE_REDIRECTS);
}

/**
 * The kind of an article found in one of the ICD's feeds (coherence.feeds), queued at depth 1 with
 * the feed as the page it was found on: a feed is an entry point the archivist subscribed to, as a
 * seed is (depth 0). Its articles are taken whatever `maxDepth` says, 0 included; exclude patterns,
 * the host scope and the include patterns still apply, and their own links count from depth 1.
 */
export const FEED_ITEM_KIND = 'feed-item';

/** Compiles scope rules once; `checkScope` accepts the result in place of the rules. */
export function compileScope(rules: ScopeRules, seeds: readonly string[]): CompiledScope {
  const hosts = new Set<string>();
  // As canonical URLs write it: a seed typed with the root's trailing dot (`http://example.org./`)
  // kept it, and every link of its own host was out of scope.
  for (const seed of seeds) {
    const host = hostnameOf(seed) && listedHostName(seed);
    if (host) hosts.add(stripWww(host));
  }
  for (const entry of rules.allowedHosts) {
    const host = listedHostName(entry);
    if (host) hosts.add(stripWww(host));
  }
  return {
    rules,
    hosts,
    surtPrefixes: rules.surtPrefixes.map(surtPrefixOf).filter(Boolean),
    include: rules.include.map((r) => new RegExp(r)),
    exclude: rules.exclude.map((r) => new RegExp(r)),
  };
}

function inSurtScope(url: string, prefixes: readonly string[]): boolean {
  if (prefixes.length === 0) return false;
  const surt = toSurt(url);
  return prefixes.some((p) => surtHasPrefix(surt, p));
}

function isCompiled(scope: ScopeRules | CompiledScope): scope is CompiledScope {
  return 'rules' in scope && 'hosts' in scope;
}

/**
 * Decides whether a candidate URL is in the crawl's scope, and if not, why. Checked in order:
 * a parseable URL, an http(s) scheme, length, exclude patterns (which always win), depth (not for
 * a feed's articles, FEED_ITEM_KIND), host scope and include patterns.
 *
 * Host scope is the seeds' hosts plus `allowedHosts` (a leading `www.` ignored on both sides) or
 * any of `surtPrefixes`: the prefixes add to the host scope, as Heritrix's do; narrow a crawl with
 * `include`/`exclude`. When `includeRequisites` is on, requisites may leave the host scope, skip
 * `include`, and lie past `maxDepth` when at most MAX_EMBED_HOPS embed hops from the page they hang
 * from (the requisites of a page's stylesheets and iframes too; takenPastDepth), so pages at the
 * edge are archived whole; so may the redirects a requisite answers (a CDN image to its storage
 * host), up to MAX_REQUISITE_REDIRECTS of them. A page's redirect may sit one hop past `maxDepth`.
 * With `extraHops`, URLs a few links away from an in-scope page may leave them too (see
 * ScopeRules.extraHops and outOfScopeHops).
 */
export function checkScope(
  candidate: ScopeCandidate,
  scope: ScopeRules | CompiledScope,
  seeds: readonly string[] = [],
): ScopeDecision {
  const compiled = isCompiled(scope) ? scope : compileScope(scope, seeds);
  const { rules } = compiled;
  const url = candidate.url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { inScope: false, reason: 'invalid-url' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { inScope: false, reason: 'unsupported-scheme' };
  if (!parsed.hostname) return { inScope: false, reason: 'invalid-url' };
  if (url.length > rules.maxUrlLength) return { inScope: false, reason: 'url-too-long' };
  if (compiled.exclude.some((re) => re.test(url))) return { inScope: false, reason: 'exclude-match' };

  // A requisite's redirect is the requisite still: the chain may go past the requisite's own depth.
  const asRequisite = rules.includeRequisites && isRequisiteRedirect(candidate);
  if (candidate.depth > rules.maxDepth && candidate.kind !== FEED_ITEM_KIND && !takenPastDepth(candidate, rules, asRequisite)) {
    return { inScope: false, reason: 'max-depth' };
  }

  const outside = outsideReason(url, parsed.hostname, compiled);
  if (outside === null) return { inScope: true, hops: 0 };
  const via = candidate.viaUrl ? candidate.viaHops ?? (inScopeProper(candidate.viaUrl, compiled) ? 0 : 1) : null;
  // sitemaps.org's cross-submission: a robots.txt of the crawl's hosts may name a sitemap on another
  // host (via 0: found on an in-scope page), and that one the sitemaps it lists, found at 0 hops too.
  // They are fetched wherever they are; the URLs they list are judged as any. Include patterns still hold.
  if (candidate.kind === 'sitemap' && via === 0 && outside !== 'include-mismatch') return { inScope: true, hops: 0 };
  const hops = outOfScopeHops(candidate.kind, via);
  if (rules.includeRequisites && (isRequisiteKind(candidate.kind) || asRequisite)) return { inScope: true, hops };
  // A URL found on no page (an API post, a seed check) is no hop. A redirect completing a URL
  // fetched outside (an extra hop, or a requisite) is taken whenever extra hops are on.
  const extra = rules.extraHops ?? 0;
  if (via !== null && extra > 0 && (hops <= extra || (candidate.kind === 'redirect' && via > 0))) return { inScope: true, hops };
  return { inScope: false, reason: outside };
}

/**
 * Refusals that depend on the page a URL was found on and how it links to it (the host scope, the
 * include patterns, the depth limit), so a later discovery may overturn them: a URL an `<a>` link
 * was refused as out of scope is still taken when another page embeds it as a requisite, or links
 * to it within the extra hops. Heritrix does not count such URLs as seen, for that reason. Exclude
 * patterns, traps, URL length and budgets refuse a URL however it is found.
 */
export const RETAKABLE_REFUSALS: ReadonlySet<string> = new Set<ExclusionReason>(['out-of-scope-host', 'out-of-surt-scope', 'include-mismatch', 'max-depth']);

/**
 * Whether a link of `kind` could be taken where an earlier link to the same URL was refused for
 * one of RETAKABLE_REFUSALS: a requisite (or a redirect, which a requisite's may be) when the scope
 * takes requisites, any link when it has extra hops. Other links to such a URL, the common case of
 * an off-site link on every page, are not checked again.
 */
export function mayRetakeRefused(kind: string, rules: Pick<ScopeRules, 'includeRequisites' | 'extraHops'>): boolean {
  return (rules.includeRequisites && oneHopMore(kind)) || (rules.extraHops ?? 0) > 0;
}

/** What may take a URL outside the scope: the crawl's extra hops, or a page using it as a requisite. */
export type OutsideAllowance = 'extra-hops' | 'requisite';

/**
 * Whether the scope takes `url` with no page known to link to it (the URL inspector's question):
 * `decision` as for a link found on no page within the depth limit, and, when that refuses it for
 * lying outside the scope, `takenIf` what would still take it. That depends on the page linking to
 * it: 'extra-hops' when a page in the scope (or fewer than extraHops links outside it) links to it,
 * 'requisite' when a page uses it as a requisite.
 */
export function scopeWithoutPage(url: string, scope: CompiledScope): { decision: ScopeDecision; takenIf: OutsideAllowance[] } {
  const decision = checkScope({ url, depth: 0, kind: 'navigation' }, scope);
  const takenIf: OutsideAllowance[] = [];
  if (decision.inScope) return { decision, takenIf };
  // Linked from a page in the scope itself (viaHops 0): the nearest a page outside could be.
  if (checkScope({ url, depth: 0, kind: 'navigation', viaUrl: url, viaHops: 0 }, scope).inScope) takenIf.push('extra-hops');
  if (checkScope({ url, depth: 0, kind: 'requisite' }, scope).inScope) takenIf.push('requisite');
  return { decision, takenIf };
}

/**
 * Whether a candidate deeper than maxDepth is still taken (includeRequisites on): a requisite, or a
 * redirect one answers, at most MAX_EMBED_HOPS embed hops from its page, whatever its depth, as
 * Heritrix's TransclusionDecideRule accepts what its TooManyHopsDecideRule refused. Besides, as
 * before the count (and when it is unknown): a requisite or any redirect one hop past the limit, a
 * requisite's redirects a hop further each.
 */
function takenPastDepth(c: ScopeCandidate, rules: ScopeRules, asRequisite: boolean): boolean {
  if (!rules.includeRequisites) return false;
  if (c.depth <= rules.maxDepth + (oneHopMore(c.kind) ? 1 : 0) + (asRequisite ? c.requisiteRedirect! : 0)) return true;
  if (c.viaEmbeds == null) return false;
  // A requisite is one embed hop more than its page; an import, or a requisite's redirect, is that requisite still.
  const embeds = c.kind === IMPORT_KIND || asRequisite ? c.viaEmbeds : isRequisiteKind(c.kind) ? c.viaEmbeds + 1 : Infinity;
  return embeds <= MAX_EMBED_HOPS;
}

/**
 * How many embed hops lead to a fetched URL from the page its chain of requisites hangs from: 0 for
 * a page reached by a link (a seed, a navigation link, a sitemap's URL, their redirects), 1 for a
 * page's stylesheet or iframe, 2 for that iframe's images, a requisite's redirect counting as the
 * requisite, an import (IMPORT_KIND) as the module or stylesheet that imports it. Its own requisites count on from it (ScopeCandidate.viaEmbeds). `kind` and `viaUrl`
 * are the URL's own, as the frontier stored them; `lookup` reads another URL's (null when the
 * frontier lacks it: the count stops there). Stops past MAX_EMBED_HOPS: more decides nothing.
 * No lookup for a URL that is no requisite or redirect, most pages.
 */
export function embedHopsOf(
  kind: string,
  viaUrl: string | null,
  lookup: (url: string) => { kind: string; viaUrl: string | null } | null,
): number {
  let embeds = 0;
  // Bounds the walk should the stored ways ever loop.
  for (let steps = 0; oneHopMore(kind) && steps <= deepestTaken(0); steps++) {
    if (kind !== 'redirect' && kind !== IMPORT_KIND && ++embeds > MAX_EMBED_HOPS) break;
    const via = viaUrl === null ? null : lookup(viaUrl);
    if (!via) break;
    ({ kind, viaUrl } = via);
  }
  return embeds;
}

/**
 * The document whose module graph a fetched script is in: the page or frame that loaded the module
 * its imports (IMPORT_KIND) and redirects lead back to, as a requisite (`<script type=module src>`,
 * a modulepreload, an import map's address). Null when they lead to no requisite (a script reached
 * by a link) or the frontier lacks a step. `kind` and `viaUrl` are the script's own, as the frontier
 * stored them; `lookup` reads another URL's.
 */
export function moduleDocumentOf(
  kind: string,
  viaUrl: string | null,
  lookup: (url: string) => { kind: string; viaUrl: string | null } | null,
): string | null {
  // Bounds the walk should the stored ways ever loop.
  for (let steps = 0; (kind === IMPORT_KIND || kind === 'redirect') && steps <= deepestTaken(0); steps++) {
    const via = viaUrl === null ? null : lookup(viaUrl);
    if (!via) return null;
    ({ kind, viaUrl } = via);
  }
  return isRequisiteKind(kind) ? viaUrl : null;
}

/** Whether `candidate` is a redirect within MAX_REQUISITE_REDIRECTS of a page requisite. */
function isRequisiteRedirect(candidate: ScopeCandidate): boolean {
  const n = candidate.requisiteRedirect;
  return candidate.kind === 'redirect' && typeof n === 'number' && n >= 1 && n <= MAX_REQUISITE_REDIRECTS;
}

/**
 * How many redirects separate a fetched URL from the page requisite its redirect chain began at:
 * 0 for a requisite, n for the nth redirect after one, null when its chain began at no requisite
 * (or is longer than MAX_REQUISITE_REDIRECTS). `kind` and `viaUrl` are the URL's own, as the
 * frontier stored them; `lookup` reads another URL's (null when the frontier lacks it).
 */
export function requisiteRedirectsOf(
  kind: string,
  viaUrl: string | null,
  lookup: (url: string) => { kind: string; viaUrl: string | null } | null,
): number | null {
  let n = 0;
  while (kind === 'redirect') {
    if (viaUrl === null || n >= MAX_REQUISITE_REDIRECTS) return null;
    const via = lookup(viaUrl);
    if (!via) return null;
    ({ kind, viaUrl } = via);
    n++;
  }
  return isRequisiteKind(kind) ? n : null;
}

/**
 * Out-of-scope hops of a URL outside the scope found on a page `via` hops from it (null: on no
 * page): one more than its page's, except for a redirect of a page already outside, which
 * completes that page's hop (Browsertrix and Heritrix do not count it either).
 */
function outOfScopeHops(kind: string, via: number | null): number {
  if (via === null) return 1;
  return kind === 'redirect' && via > 0 ? via : via + 1;
}

/** Why `url` is outside the host scope or the include patterns; null when inside both. */
function outsideReason(url: string, hostname: string, compiled: CompiledScope): ExclusionReason | null {
  if (!inHostScope(url, hostname, compiled)) {
    return compiled.surtPrefixes.length > 0 ? 'out-of-surt-scope' : 'out-of-scope-host';
  }
  if (compiled.include.length > 0 && !compiled.include.some((re) => re.test(url))) return 'include-mismatch';
  return null;
}

/** Whether `url`'s host is one the crawl's scope takes (its hosts or SURT prefixes), whatever its path. */
export function hostInScope(url: string, compiled: CompiledScope): boolean {
  const hostname = hostnameOf(url);
  return hostname !== '' && inHostScope(url, hostname, compiled);
}

/** The host scope's test of `url` (whose host is `hostname`): a host of the crawl's, or one of its SURT prefixes. */
function inHostScope(url: string, hostname: string, compiled: CompiledScope): boolean {
  return compiled.hosts.has(stripWww(hostname)) || inSurtScope(url, compiled.surtPrefixes);
}

/** Whether a page's URL is within the host scope and the include patterns (not by an allowance). */
function inScopeProper(url: string, compiled: CompiledScope): boolean {
  const hostname = hostnameOf(url);
  return hostname !== '' && outsideReason(url, hostname, compiled) === null;
}
