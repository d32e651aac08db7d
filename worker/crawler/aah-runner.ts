import { decodeText, sniffCharset, type MarkupSummary } from '../extract';
import { compareWithPrevious, createAahEngine, parseKnowledgeBase, type AahEngine, type AahEngineOptions, type PageAnalysis, type StructuralComparison, type WebObject } from '../aah';
import type { AdaptedRuleStore } from '../store/adapted-rule-store';
import { canonicalize, queryEncodingOf, type QueryHandling } from '../url';
import type { CrawlItem } from './stage';

/** The AAH's verdict in the crawl's terms: canonical URLs, objects ready to store. */
export interface AahVerdict {
  application?: string;
  /**
   * Only `follow` navigation links are worth queueing: the application was detected and its rules
   * match this page (its level, a follow or an extraction rule). On a page where none matches (the
   * host also runs another application, a page its rules do not know) they say nothing about its
   * links, which are then queued as without the AAH (do-not-follow rules still apply).
   */
  restrictNavigation: boolean;
  follow: { url: string; bonus: number }[];
  doNotFollow: string[];
  /** This page's objects, then (with `url`) those of earlier pages an adapted rule adopted here extracts. */
  objects: { type: string; fields: Record<string, string>; rule: string; application: string; url?: string }[];
}

/** Why the AAH left a page alone, for the crawl log. */
const SKIP_NOTES: Record<NonNullable<PageAnalysis['skipped']>, string> = {
  'page-too-large': 'aah skipped: page too large to analyse',
  'too-slow': 'aah skipped: page too slow to analyse (over its time budget)',
};

/** A fetched HTML page as the AAH reads it. */
export interface HtmlPage {
  url: string;
  host: string;
  status: number;
  headers: Record<string, string>;
  html: Buffer;
  /** From the link extraction, when it ran: lets detection skip the DOM on pages with no application. */
  markup?: MarkupSummary;
}

export interface AahRunnerOptions {
  /** How often the stored rules' statuses are re-read (ms). Default 5,000. */
  statusRefreshMs?: number;
  now?: () => number;
  /** Options of the engine (worker/aah/engine.ts), e.g. its time budget per page. */
  engine?: AahEngineOptions;
}

/** What a recrawl of a page tells about its application's rules. */
export interface RecrawlCheck {
  verdict: AahVerdict | null;
  /** Null when the page has Web objects neither stored nor now. */
  comparison: StructuralComparison | null;
  /** For the crawl log, e.g. `aah structure-changed: post 3→0`. */
  summary: string | null;
}

/**
 * Wires the pure AAH engine into the crawl: one engine (host cache, adaptation) per crawl run.
 * With a rule store, the adapted rules of earlier crawls are restored at start and each rule
 * adopted during this run is stored at once, with its provenance, for the archivist to review.
 */
export class AahRunner {
  /** Rules restored from the store at start (rejected ones included), for the crawl's report. */
  readonly restored: { usable: number; rejected: number; unreadable: number };
  /** Engine rule id → stored row and the status the engine has, to follow the cockpit's decisions. */
  private readonly stored = new Map<string, { rowId: number; status: string }>();
  private statusesReadAt: number;

  private constructor(
    private readonly engine: AahEngine,
    private readonly queryHandling: QueryHandling,
    private readonly rules: AdaptedRuleStore | null,
    private readonly options: AahRunnerOptions,
  ) {
    const loaded = rules?.loadAll() ?? { rules: [], rowIds: new Map<string, number>(), unreadable: 0 };
    engine.loadAdaptedRules(loaded.rules);
    for (const r of loaded.rules) this.stored.set(r.id, { rowId: loaded.rowIds.get(r.id)!, status: r.status });
    const rejected = loaded.rules.filter((r) => r.status === 'rejected').length;
    this.restored = { usable: loaded.rules.length - rejected, rejected, unreadable: loaded.unreadable };
    this.statusesReadAt = this.now();
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Parses the knowledge base; an invalid one fails the crawl start with the line numbers. */
  static create(xml: string, queryHandling: QueryHandling, rules: AdaptedRuleStore | null = null, options: AahRunnerOptions = {}): AahRunner {
    const parsed = parseKnowledgeBase(xml);
    if (!parsed.ok) throw new Error(`Invalid knowledge base: ${parsed.errors.slice(0, 5).map((e) => `line ${e.line}: ${e.message}`).join('; ')}`);
    return new AahRunner(createAahEngine(parsed.kb, options.engine), queryHandling, rules, options);
  }

  /** The AAH's verdict on a fetched page, or why it has none (`skipped`, for the crawl log). */
  analyse(item: CrawlItem): { verdict: AahVerdict | null; skipped?: string } {
    if (!item.html || !item.exchange) return { verdict: null };
    return this.analyseHtml({ url: item.url, host: item.host, status: item.exchange.status, headers: item.exchange.headers, html: item.html, markup: item.markup });
  }

  /**
   * A recrawled page: the AAH's verdict, and its objects compared with those stored from the
   * page's previous capture (the same actions re-applied). `structure-changed` means the rules
   * no longer extract what they did: the template changed.
   */
  recrawl(page: HtmlPage, previousObjects: readonly Pick<WebObject, 'type' | 'fields'>[]): RecrawlCheck {
    const { verdict, skipped } = this.analyseHtml(page);
    // Not analysed: nothing to compare (an empty result would read as a changed template).
    if (skipped) return { verdict: null, comparison: null, summary: skipped };
    const objects = (verdict?.objects ?? []).filter((o) => !o.url);
    const comparison = previousObjects.length || objects.length ? compareWithPrevious(previousObjects, objects) : null;
    const changes = (comparison?.types ?? []).flatMap((t) => {
      const parts = [
        t.missingFields.length ? `no ${t.missingFields.join(', ')}` : '',
        t.added ? `${t.added} added` : '', t.removed ? `${t.removed} removed` : '', t.changed ? `${t.changed} changed` : '',
      ].filter(Boolean);
      return parts.length || t.previous !== t.current ? [`${t.type} ${t.previous}→${t.current}${parts.length ? ` (${parts.join(', ')})` : ''}`] : [];
    });
    const summary = comparison ? `aah ${comparison.verdict}${changes.length ? `: ${changes.join('; ')}` : ''}` : null;
    return { verdict, comparison, summary };
  }

  private analyseHtml(page: HtmlPage): { verdict: AahVerdict | null; skipped?: string } {
    this.followDecisions();
    const { html, headers } = page;
    // html is decoded only if the engine reads it (hosts cached as "no application" skip the page),
    // in the charset the link extraction sniffed (BOM, Content-Type, <meta>…): read as UTF-8, a
    // windows-1252 forum's posts were stored with U+FFFD for every accented letter. Its links'
    // queries are encoded in that charset too, as the link extraction encodes them.
    let text: string | undefined;
    let charset: string | undefined;
    const charsetOf = () => (charset ??= sniffCharset(html, headers['content-type']));
    const result = this.engine.analysePage({
      url: page.url, host: page.host, status: page.status, headers, markup: page.markup, queryHandling: this.queryHandling,
      get html() {
        return (text ??= decodeText(html, headers['content-type'], charsetOf()));
      },
      get encoding() {
        return queryEncodingOf(charsetOf());
      },
    });
    this.storeAdopted(result.adaptation);
    if (result.skipped) return { verdict: null, skipped: SKIP_NOTES[result.skipped] };
    if (!result.application) return { verdict: null };
    const canon = (url: string) => canonicalize(url, undefined, { queryHandling: this.queryHandling }) ?? url;
    const application = result.application.id;
    const verdict: AahVerdict = {
      application,
      // Restricting a page the rules do not know excluded all its links: a phpBB board under
      // /forum/ of a host taken for WordPress lost every topic before detection ran again.
      restrictNavigation: result.actionsMatched,
      // A selected URL that has no canonical form (an empty host label) is not one to fetch.
      follow: result.follow.flatMap((f) => {
        const url = canonicalize(f.url, undefined, { queryHandling: this.queryHandling });
        return url ? [{ url, bonus: f.bonus }] : [];
      }),
      doNotFollow: result.doNotFollow.map((d) => canon(d.url)),
      objects: [
        ...result.objects.map((o) => ({ type: o.type, fields: o.fields, rule: o.rule, application })),
        ...(result.earlierObjects ?? []).flatMap((e) => e.objects.map((o) => ({ type: o.type, fields: o.fields, rule: o.rule, application, url: e.url }))),
      ],
    };
    return { verdict };
  }

  private storeAdopted(events: { event: string; adaptedRule?: string }[]): void {
    if (!this.rules) return;
    const adopted = new Set(events.filter((e) => e.event === 'rule-adopted' && e.adaptedRule).map((e) => e.adaptedRule!));
    if (!adopted.size) return;
    for (const rule of this.engine.adaptedRules()) {
      if (adopted.has(rule.id)) this.stored.set(rule.id, { rowId: this.rules.add(rule), status: rule.status });
    }
  }

  /**
   * The archivist approves or rejects rules in the cockpit while the crawl runs: re-read the
   * stored statuses every `statusRefreshMs`, so a rejected rule stops extracting in this crawl.
   */
  private followDecisions(): void {
    if (!this.rules || !this.stored.size || this.now() - this.statusesReadAt < (this.options.statusRefreshMs ?? 5000)) return;
    this.statusesReadAt = this.now();
    const statuses = this.rules.statuses();
    for (const [ruleId, s] of this.stored) {
      const status = statuses.get(s.rowId);
      if ((status === 'approved' || status === 'rejected') && status !== s.status) {
        this.engine.setAdaptedRuleStatus(ruleId, status);
        s.status = status;
      }
    }
  }
}
