import { createAahEngine, parseKnowledgeBase, type AahEngine } from '../aah';
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

/** Wires the pure AAH engine into the crawl: one engine (host cache, adaptation) per crawl run. */
export class AahRunner {
  private constructor(private readonly engine: AahEngine, private readonly queryHandling: QueryHandling) {}

  /** Parses the knowledge base; an invalid one fails the crawl start with the line numbers. */
  static create(xml: string, queryHandling: QueryHandling): AahRunner {
    const parsed = parseKnowledgeBase(xml);
    if (!parsed.ok) throw new Error(`Invalid knowledge base: ${parsed.errors.slice(0, 5).map((e) => `line ${e.line}: ${e.message}`).join('; ')}`);
    return new AahRunner(createAahEngine(parsed.kb), queryHandling);
  }

  analyse(item: CrawlItem): AahVerdict | null {
    if (!item.html || !item.exchange) return null;
    const result = this.engine.analysePage({ url: item.url, host: item.host, status: item.exchange.status, headers: item.exchange.headers, html: item.html.toString('utf8') });
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
}
