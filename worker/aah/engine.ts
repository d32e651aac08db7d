/**
 * The AAH engine: per-host application cache, page level, navigation and extraction actions,
 * and adaptation. All state (host cache, adaptation store) lives in the engine object; nothing
 * is global, nothing is fetched or written here.
 */
import { applyExtraction, applyNavigation, extractObjects, type ExcludedLink, type FollowLink, type WebObject } from './actions';
import { AdaptationStore, expressionsOf, type AdaptedRule, type ApprovalStatus } from './adaptation';
import { detectApplication, detectLevel } from './detection';
import type { Application, ExtractAction, KnowledgeBase, LevelRule, NavigateAction, PageLevel } from './kb-types';
import { createPageContext, normaliseHeaders, type PageContext, type PageInput } from './page-context';
import { markupMayDetect } from './markup-check';
import { relaxAction, ruleWorks } from './relaxation';
import { buildVocabularies } from './vocabulary';
import { XPathEvaluator, XPathTimeBudgetError } from './xpath-eval';

export interface AahEngineOptions {
  /** Consecutive pages of a host on which the cached application's actions match nothing before detection runs again. Default 3. */
  recheckAfterMisses?: number;
  /** Pages of a host on which detection runs before "no application" is cached. Default 5. */
  detectionAttempts?: number;
  /** A host cached as "no application" is re-checked every this many pages. Default 50. */
  negativeRecheckEvery?: number;
  /** More pages of the level a relaxed candidate must work on before it is adopted. Default 3. */
  validationPages?: number;
  /** Relaxed candidates kept under validation per failing rule. Default 5. */
  maxCandidates?: number;
  /** Use adapted rules still awaiting the archivist's approval. Default true. */
  usePendingAdaptedRules?: boolean;
  /** Clock for provenance times (simulations pass simulated time). */
  now?: () => Date;
  /**
   * Larger HTML is not analysed (`skipped: 'page-too-large'`): analysis costs about 0.6 s per
   * MB of forum markup (bench/aah-cost.ts), so a giant page must not stall the worker. Default 5,000,000 characters.
   */
  maxHtmlChars?: number;
  /**
   * Time one page's analysis may take before it stops (`skipped: 'too-slow'`); every XPath
   * evaluation checks it, as it starts and as it walks the page. Markup nested hundreds deep makes `//` steps quadratic: generated pages
   * of 30 KB took 2–10 s. Default 1 s plus 1 ms per 1,000 characters (real forum markup needs
   * ~0.6 s per MB).
   */
  maxAnalysisMs?: number;
  /** The clock of that budget, in ms; performance.now() by default (tests give one counting work, not time). */
  clock?: () => number;
}

/** What happened to adaptation on one page, for the crawl log and the cockpit. */
export interface AdaptationEvent {
  rule: string;
  /** `no-candidate`: this page offered none; generation then pauses for 10 failing pages of the rule. */
  event: 'candidates-generated' | 'candidates-validated' | 'rule-adopted' | 'no-candidate';
  candidates: number;
  adaptedRule?: string;
}

/** The AAH's verdict on one page. */
export interface PageAnalysis {
  application?: { id: string; name: string; category: string };
  level: PageLevel | null;
  /** Links to queue (absolute, no fragment) with a priority bonus; with an application detected these are the only navigation links worth queueing. */
  follow: FollowLink[];
  /** Links never to fetch; the crawler records them as excluded with reason `aah`. */
  doNotFollow: ExcludedLink[];
  objects: WebObject[];
  /** Whether the application's level detection or any follow/extraction action matched. */
  actionsMatched: boolean;
  /** True when detection ran on this page (false: the host's cached answer was used). */
  detectionRan: boolean;
  adaptation: AdaptationEvent[];
  /**
   * Set when an adapted rule was adopted on this page: the objects it extracts from the earlier
   * pages it was generated and validated on, which the original rule left empty (their source
   * URLs are not this page's).
   */
  earlierObjects?: { url: string; objects: WebObject[] }[];
  /** Set when the page was not analysed, or not to the end; the crawler then treats its links as without an AAH. */
  skipped?: 'page-too-large' | 'too-slow';
}

export interface AahEngine {
  /** Analyses one fetched HTML page. Throws only on an invalid `url`. */
  analysePage(page: PageInput): PageAnalysis;
  /** Adapted rules with provenance and approval status. */
  adaptedRules(): AdaptedRule[];
  /** The archivist approves or rejects an adapted rule; false if unknown. Rejected rules are no longer used. */
  setAdaptedRuleStatus(id: string, status: Exclude<ApprovalStatus, 'pending'>): boolean;
  /**
   * Restores adapted rules saved from an earlier run (oldest first: the newest usable one of an
   * original rule is applied). Pass rejected rules too: their expressions are never adopted again.
   */
  loadAdaptedRules(rules: readonly AdaptedRule[]): void;
  /** Cached application of a host: an application, null (none found), or undefined (not decided yet). */
  hostApplication(host: string): { id: string; name: string } | null | undefined;
}

interface HostState {
  app: Application | null;
  decided: boolean;
  pages: number;
  misses: number;
}

/** A page on which no application's actions ran (none detected, or the page was skipped). */
function noAnalysis(detectionRan: boolean, skipped?: PageAnalysis['skipped']): PageAnalysis {
  const analysis: PageAnalysis = { level: null, follow: [], doNotFollow: [], objects: [], actionsMatched: false, detectionRan, adaptation: [] };
  if (skipped) analysis.skipped = skipped;
  return analysis;
}

/** Creates an engine over a parsed knowledge base. */
/**
 * Whether an adapted rule stands in for `action` as the knowledge base has it now: it was made from
 * the same select and fields. One made from an earlier version of the rule (the archivist has edited
 * it in the cockpit since) is stale, and the edited rule adapts afresh if it fails.
 */
function madeFrom(adapted: AdaptedRule, action: ExtractAction): boolean {
  const { select, fields } = adapted.original;
  return select === action.select && Object.keys(fields).length === action.fields.length && action.fields.every((f) => fields[f.name] === f.select);
}

export function createAahEngine(kb: KnowledgeBase, options: AahEngineOptions = {}): AahEngine {
  const opts = {
    recheckAfterMisses: 3, detectionAttempts: 5, negativeRecheckEvery: 50, validationPages: 3,
    maxCandidates: 5, usePendingAdaptedRules: true, now: () => new Date(), maxHtmlChars: 5_000_000, ...options,
  };
  const ev = new XPathEvaluator(opts.clock);
  const hosts = new Map<string, HostState>();
  const store = new AdaptationStore(opts.validationPages);
  const vocabularies = buildVocabularies(kb);
  // Per failing rule: the pages its candidates were generated and validated on (at most
  // 1 + validationPages), so that an adopted rule also extracts what they held.
  const candidatePages = new Map<string, Map<string, PageContext>>();

  const detectionDue = (host: HostState): boolean =>
    host.app ? host.misses >= opts.recheckAfterMisses : !host.decided || host.pages % opts.negativeRecheckEvery === 0;

  function recordDetection(host: HostState, application: Application | null): void {
    if (application || host.pages >= opts.detectionAttempts || host.app) {
      host.decided = true;
      host.app = application;
    }
    host.misses = 0;
  }

  function chooseApplication(host: HostState, page: PageContext): boolean {
    if (!detectionDue(host)) return false;
    recordDetection(host, detectApplication(kb, page).application);
    return true;
  }

  function analysePage(input: PageInput): PageAnalysis {
    // A host cached as "no application" between its re-checks: nothing would run on the page, so
    // it is not parsed either (on a site without an application this was most of the AAH's cost).
    const hostName = input.host ?? new URL(input.url).host;
    let host = hosts.get(hostName);
    if (host && host.decided && !host.app && (host.pages + 1) % opts.negativeRecheckEvery !== 0) {
      host.pages++;
      return noAnalysis(false);
    }
    if (!input.dom && (input.html?.length ?? 0) > opts.maxHtmlChars) {
      new URL(input.url); // same contract as analysed pages: an invalid URL is the caller's bug
      return noAnalysis(false, 'page-too-large');
    }
    const url = new URL(input.url); // an invalid URL throws before the host's state changes
    if (!host) hosts.set(hostName, (host = { app: null, decided: false, pages: 0, misses: 0 }));
    host.pages++;
    // Detection due on a host without an application, and the page's markup rules every application out: no DOM.
    const markup = input.markup;
    if (markup && !input.dom && !host.app && detectionDue(host) &&
      !markupMayDetect(kb, ev, { markup, source: () => input.html ?? '', url: url.href, headers: normaliseHeaders(input.headers) })) {
      recordDetection(host, null);
      return noAnalysis(true);
    }
    const budgetMs = opts.maxAnalysisMs ?? 1000 + (input.html?.length ?? 0) / 1000;
    try {
      return ev.withDeadline(budgetMs, () => analyseWithin(input, host));
    } catch (err) {
      if (!(err instanceof XPathTimeBudgetError)) throw err;
      return noAnalysis(false, 'too-slow');
    }
  }

  function analyseWithin(input: PageInput, host: HostState): PageAnalysis {
    const page = createPageContext(input, ev);
    let detectionRan = chooseApplication(host, page);
    let result = host.app ? applyApplication(host.app, page) : undefined;
    if (host.app && result && !result.actionsMatched) {
      host.misses++;
      if (host.misses >= opts.recheckAfterMisses && chooseApplication(host, page)) {
        detectionRan = true;
        result = host.app ? applyApplication(host.app, page) : undefined;
      }
    } else if (result) host.misses = 0;
    if (!host.app || !result) return noAnalysis(detectionRan);
    return { ...result, detectionRan };
  }

  function applyApplication(app: Application, page: PageContext): Omit<PageAnalysis, 'detectionRan'> {
    const level = detectLevel(app, page);
    const levelRule = level ? app.levels.find((l) => l.level === level) : undefined;
    const nav: { action: NavigateAction; rule: string }[] = [
      ...app.navigate.map((action) => ({ action, rule: `${app.id}/*/${action.id}` })),
      ...(levelRule?.navigate ?? []).map((action) => ({ action, rule: `${app.id}/${level}/${action.id}` })),
    ];
    const { follow, doNotFollow } = applyNavigation(nav, page);
    const objects: WebObject[] = app.extract.flatMap((a) => applyExtraction(a, `${app.id}/*/${a.id}`, page));
    const adaptation: AdaptationEvent[] = [];
    const earlierObjects: { url: string; objects: WebObject[] }[] = [];
    for (const action of levelRule?.extract ?? []) {
      const rule = `${app.id}/${level}/${action.id}`;
      const found = applyExtraction(action, rule, page);
      if (found.length || action.optional) objects.push(...found);
      else objects.push(...adapt(app, levelRule!, action, rule, page, adaptation, earlierObjects));
    }
    const actionsMatched = level !== null || follow.length > 0 || objects.length > 0;
    return {
      application: { id: app.id, name: app.name, category: app.category }, level, follow, doNotFollow, objects, actionsMatched, adaptation,
      ...(earlierObjects.length ? { earlierObjects } : {}),
    };
  }

  /** The original rule extracted nothing on a page of its level: adapted rule, or validate / generate candidates. */
  function adapt(
    app: Application, levelRule: LevelRule, action: ExtractAction, rule: string, page: PageContext, events: AdaptationEvent[],
    earlier: { url: string; objects: WebObject[] }[],
  ): WebObject[] {
    const active = store.activeRule(rule);
    if (active && madeFrom(active, action) && (opts.usePendingAdaptedRules || active.status === 'approved')) {
      const objs = extractObjects(action.type, expressionsOf(action, active.adapted.fields, active.adapted.select), active.id, page);
      if (objs.length) return objs;
    }
    if (store.hasPending(rule)) {
      const pending = store.pending(rule);
      const works = pending.map((c) => safeWorks(action, expressionsOf(action, c.fields, c.select), page));
      const adopted = store.validate(rule, page.url, works, action, app.id, levelRule.level, opts.now());
      if (adopted) {
        events.push({ rule, event: 'rule-adopted', candidates: 0, adaptedRule: adopted.id });
        const expr = expressionsOf(action, adopted.adapted.fields, adopted.adapted.select);
        const pages = candidatePages.get(rule);
        candidatePages.delete(rule);
        for (const url of [adopted.generatedOn, ...adopted.validatedOn]) {
          const earlierPage = url === page.url ? undefined : pages?.get(url);
          const objs = earlierPage ? extractObjects(action.type, expr, adopted.id, earlierPage) : [];
          if (objs.length) earlier.push({ url, objects: objs });
        }
        return extractObjects(action.type, expr, adopted.id, page);
      }
      if (store.hasPending(rule)) {
        if (works.some(Boolean)) candidatePages.get(rule)?.set(page.url, page);
        events.push({ rule, event: 'candidates-validated', candidates: store.pending(rule).length });
        return [];
      }
      candidatePages.delete(rule);
    }
    if (!store.mayGenerate(rule)) return [];
    const candidates = relaxAction(action, vocabularies.get(app.category)!, page, opts.maxCandidates);
    const kept = store.propose(rule, candidates, page.url);
    if (kept) candidatePages.set(rule, new Map([[page.url, page]]));
    else candidatePages.delete(rule);
    events.push({ rule, event: kept ? 'candidates-generated' : 'no-candidate', candidates: kept });
    return [];
  }

  function safeWorks(action: ExtractAction, expr: ReturnType<typeof expressionsOf>, page: PageContext): boolean {
    try {
      return ruleWorks(action.type, expr, page);
    } catch (err) {
      if (err instanceof XPathTimeBudgetError) throw err;
      return false;
    }
  }

  return {
    analysePage,
    adaptedRules: () => store.rules(),
    setAdaptedRuleStatus: (id, status) => store.setStatus(id, status),
    loadAdaptedRules: (rules) => store.load(rules),
    hostApplication(host) {
      const h = hosts.get(host);
      if (!h || !h.decided) return undefined;
      return h.app ? { id: h.app.id, name: h.app.name } : null;
    },
  };
}
