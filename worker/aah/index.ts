/**
 * Application-Aware Helper (AAH): recognises the web application behind a page from an XML
 * knowledge base, tells the crawler which links are worth queueing and which must never be
 * fetched, extracts Web objects (posts, comments, articles), and adapts its extraction rules
 * when a site's template drifted. Pure: no fetching, no storage; the crawler wires it in.
 *
 * Typical use by the crawl worker:
 *
 * ```ts
 * const parsed = parseKnowledgeBase(xmlText);            // validate once (cockpit: on every keystroke)
 * if (!parsed.ok) throw …parsed.errors                    // [{line, column, message}]
 * const aah = createAahEngine(parsed.kb);                 // one per crawl (host cache + adaptation state)
 * const r = aah.analysePage({ url, status, headers, html });
 * // r.application?.id, r.level ('intermediate' | 'terminal' | null)
 * // r.application ? queue only r.follow (+ page requisites) : queue the extractor's links
 * // r.doNotFollow → record as excluded, reason 'aah'
 * // r.objects     → store {type, fields, rule, sourceUrl}; WARC metadata record; objects.jsonl
 * // aah.adaptedRules() → show to the archivist; aah.setAdaptedRuleStatus(id, 'approved' | 'rejected')
 * ```
 *
 * On a recrawl, `compareWithPrevious(storedObjects, r.objects)` says whether the page's
 * structure changed (rules no longer extract what they did) or only its content.
 *
 * The knowledge-base format is documented in docs/knowledge-base.md; the shipped knowledge base
 * is knowledge-base/default.xml (see {@link loadDefaultKnowledgeBaseXml} in ./default-kb).
 */
export { parseKnowledgeBase } from './kb-parser';
export { DEFAULT_XML_LIMITS, KB_MAX_CHARS, type XmlReadLimits } from './kb-xml-reader';
export type {
  AppCategory, Application, Detection, ExtractAction, FieldRule, KbError, KbParseResult, KnowledgeBase,
  LevelRule, NavigateAction, PageLevel, Signal, SourcePosition,
} from './kb-types';
export {
  createAahEngine, type AahEngine, type AahEngineOptions, type AdaptationEvent, type PageAnalysis,
} from './engine';
export type { PageInput } from './page-context';
export type { ExcludedLink, FollowLink, WebObject } from './actions';
export { APPROVAL_STATUSES, type AdaptedRule, type ApprovalStatus } from './adaptation';
export { compareWithPrevious, type StructuralComparison, type TypeComparison } from './structural-change';
export { parseHtml } from './html-dom';
export { compileXPath, XPathCompileError, XPathEvaluator } from './xpath-eval';
export { detectApplication, detectLevel, type DetectionResult } from './detection';
export { DEFAULT_KB_PATH, loadDefaultKnowledgeBaseXml } from './default-kb';
