import { createAahEngine, parseKnowledgeBase, type AahEngine } from '../aah';
import type { AdaptedRuleStore } from '../store/adapted-rule-store';
import { canonicalize, type QueryHandling } from '../url';
import type { CrawlItem } from './stage';

/** The AAH's verdict in the crawl's terms: canonical URLs, objects ready to store. */
export interface AahVerdict {
  application?: string;
  /** With an application detected, only `follow` navigation links are worth queueing. */
  restrictNavigation: boolean;
  follow: { url: string; bonus: number }[];
  doNotFollow: string[];
  objects: { type: string; fields: Record<string, string>; rule: string; application: string }[];
}

/**
 * Wires the pure AAH engine into the crawl: one engine (host cache, adaptation) per crawl run.
 * With a rule store, the adapted rules of earlier crawls are restored at start and each rule
 * adopted during this run is stored at once, with its provenance, for the archivist to review.
 */
export class AahRunner {
  /** Rules restored from the store at start (rejected ones included), for the crawl's report. */
  readonly restored: { usable: number; rejected: number; unreadable: number };

  private constructor(
    private readonly engine: AahEngine,
    private readonly queryHandling: QueryHandling,
    private readonly rules: AdaptedRuleStore | null,
  ) {
    const loaded = rules?.loadAll() ?? { rules: [], unreadable: 0 };
    engine.loadAdaptedRules(loaded.rules);
    const rejected = loaded.rules.filter((r) => r.status === 'rejected').length;
    this.restored = { usable: loaded.rules.length - rejected, rejected, unreadable: loaded.unreadable };
  }

  /** Parses the knowledge base; an invalid one fails the crawl start with the line numbers. */
  static create(xml: string, queryHandling: QueryHandling, rules: AdaptedRuleStore | null = null): AahRunner {
    const parsed = parseKnowledgeBase(xml);
    if (!parsed.ok) throw new Error(`Invalid knowledge base: ${parsed.errors.slice(0, 5).map((e) => `line ${e.line}: ${e.message}`).join('; ')}`);
    return new AahRunner(createAahEngine(parsed.kb), queryHandling, rules);
  }

  analyse(item: CrawlItem): AahVerdict | null {
    if (!item.html || !item.exchange) return null;
    const result = this.engine.analysePage({ url: item.url, host: item.host, status: item.exchange.status, headers: item.exchange.headers, html: item.html.toString('utf8') });
    this.storeAdopted(result.adaptation);
    if (!result.application) return null;
    const canon = (url: string) => canonicalize(url, undefined, { queryHandling: this.queryHandling }) ?? url;
    const application = result.application.id;
    return {
      application,
      restrictNavigation: true,
      follow: result.follow.map((f) => ({ url: canon(f.url), bonus: f.bonus })),
      doNotFollow: result.doNotFollow.map((d) => canon(d.url)),
      objects: result.objects.map((o) => ({ type: o.type, fields: o.fields, rule: o.rule, application })),
    };
  }

  private storeAdopted(events: { event: string; adaptedRule?: string }[]): void {
    if (!this.rules) return;
    const adopted = new Set(events.filter((e) => e.event === 'rule-adopted' && e.adaptedRule).map((e) => e.adaptedRule!));
    if (!adopted.size) return;
    for (const rule of this.engine.adaptedRules()) if (adopted.has(rule.id)) this.rules.add(rule);
  }
}
