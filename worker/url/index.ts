/**
 * URL stage of the crawl engine (pure): canonicalisation, SURT forms, host helpers, scope
 * decisions and crawler-trap detection.
 */
export { baseHrefUrl, baseLeavesDocument, canonicalize, isInPageReference, normalizePercentEncoding, parseHttpUrl, resolveReference, sortQuery, trimAsciiWhitespace, type CanonicalizeOptions, type QueryHandling } from './canonicalize';
export { queryEncodingOf } from './query-encoding';
export { withoutSessionIds } from './session-id';
export { isRobotsTxtUrl } from './robots-txt-url';
export { ReferenceCache } from './reference-cache';
export { hostKeyOf, hostnameOf, listedHostName, payLevelDomainOf, stripWww } from './host';
export { matchesSurtPrefix, surtHasPrefix, surtKey, surtPrefixOf, toSurt } from './surt';
export { checkScope, compileScope, deepestTaken, embedHopsOf, FEED_ITEM_KIND, hostInScope, IMPORT_KIND, isRequisiteKind, MANIFEST_KIND, MAX_EMBED_HOPS, moduleDocumentOf, MAX_REQUISITE_REDIRECTS, mayRetakeRefused, REQUISITE_KINDS, requisiteRedirectsOf, RETAKABLE_REFUSALS, scopeWithoutPage, type CompiledScope, type OutsideAllowance, type ScopeCandidate, type ScopeDecision, type ScopeRules } from './scope';
export { calendarKey, hasRepeatingPath, isGrowingQuery, type CalendarKey } from './trap-checks';
export { TrapDetector, type TrapDetectorState, type TrapOptions } from './trap-detector';
