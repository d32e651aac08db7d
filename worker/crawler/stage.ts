import type { FailureReason, HttpExchange } from '../capture';
import type { Lease } from '../frontier';
import type { MarkupSummary } from '../extract';

/** What a stage tells the pipeline: go on, stop here (done), or stop here (not processed). */
export type StageResult =
  | { kind: 'proceed' }
  | { kind: 'finish'; reason: string }
  | { kind: 'skip'; reason: string };

export const PROCEED: StageResult = { kind: 'proceed' };

/** One URL travelling through the pipeline; stages fill in what they produce. */
export interface CrawlItem {
  url: string;
  host: string;
  depth: number;
  priority: number;
  /** Frontier lease, returned on completion; null for pages planned outside a crawl's frontier. */
  lease: Lease | null;
  /** Consecutive out-of-scope links from the scope to the page (the frontier's scopeHops); its links count on from it. Unknown when absent or null. */
  scopeHops?: number | null;
  /**
   * Redirects between the page requisite its redirect chain began at and the URL (0: the URL is a
   * requisite), so that the redirect it answers is taken as a requisite too; null or absent when
   * the chain began at no requisite. Set by the schedule stage (url/scope.ts requisiteRedirectsOf).
   */
  requisiteRedirects?: number | null;
  /**
   * Embed hops leading to the URL from the page its requisites hang from (0: a page), so that its
   * own requisites count on from it; unknown when absent. Set by the schedule stage (url/scope.ts embedHopsOf).
   */
  embedHops?: number | null;
  /** The host's address, resolved by the DNS stage. */
  ip?: string;
  exchange?: HttpExchange;
  durationMs?: number;
  retries?: number;
  failure?: { reason: FailureReason; message: string };
  /**
   * The failure got nothing at all from the host (fetch/no-answer.ts gotNoAnswer): it counts towards
   * the host's back-off (crawler/host-outages.ts). A name that does not resolve is not counted.
   */
  noAnswer?: boolean;
  /** Failed without a request: its host's robots.txt got no answer (robots stage). Its crawl-log entry says so. */
  notRequested?: boolean;
  location?: { filename: string; offset: number; length: number; recordType: 'response' | 'revisit'; recordId: string };
  /** Place in the commit order, taken when the WARC records were submitted. */
  ticket?: number;
  /** Not before this time (robots.txt unavailable): the URL goes back to the queue. */
  retryAt?: number;
  /** Excluded before fetching (robots). */
  excludedReason?: string;
  /** Given back to the frontier unfetched (its IP was busy). */
  released?: boolean;
  /** The decoded HTML, for the AAH. */
  html?: Buffer;
  /** HTML: the names and attribute values of its markup (link extraction), for the AAH. */
  markup?: MarkupSummary;
  /** Out-links planned for the frontier (schedule stage). */
  plan?: import('./plan-out-links').OutLinkPlan;
  links?: OutLink[];
  /** An HTML page's title (whitespace collapsed, at most `TITLE_MAX` (extract-stage.ts) characters), for its capture row. */
  title?: string;
  /** HTML decoded with its charset, for focused analysis (which reads its text off the crawl's thread). */
  htmlText?: string;
  /** What the page's references resolved to, so focused analysis's own pass need not resolve them again. */
  resolved?: ReadonlyMap<string, string | null>;
  /** HTML: the encoding its links' queries were encoded in (url/query-encoding.ts queryEncodingOf), for focused analysis's own pass; unset for UTF-8. */
  queryEncoding?: string;
  /** Document-level relevance (cosine with the topic vector) when focused crawling is on. */
  similarity?: number;
  /** Web objects; `url` is set on objects of an earlier page, extracted once an adapted rule was adopted on this one. */
  objects?: { type: string; fields: Record<string, string>; rule: string; application: string; url?: string }[];
  /** What the crawl log says of a capture that succeeded, e.g. that the AAH skipped it (addNote). */
  note?: string;
  finishedBy?: { stage: string } & StageResult;
}

/** An out-link ready for scheduling. */
export interface OutLink {
  url: string;
  kind: string;
  anchorText: string;
  context: string;
  source: string;
  /** A requisite's frontier kind when it is not plain 'requisite' (ExtractedLink.role). */
  role?: 'import' | 'manifest';
  priority?: number;
  /** The analysis modules' scores behind `priority` and their weights (focused crawling): JSON of `{scores, weights}`, as the frontier stores it. */
  breakdown?: string;
  /** Score bonus from the AAH's navigation action, in [0,1]. */
  aahBonus?: number;
  excludedReason?: string;
  /** Focused analysis did not score it: its URL had left the queue, so no score could move it. */
  unscored?: boolean;
}

/** Everything a stage may use; built once per crawl by the engine. */
export type CrawlContext = import('./crawl-context').CrawlContext;

export interface Stage {
  name: string;
  /**
   * CPU work that waits its turn of the event loop (crawler/cpu-turns.ts), so that the requests
   * due meanwhile go out first. Set on the stage that begins a run of CPU work after an await.
   */
  cpuTurn?: true;
  shouldProcess?(item: CrawlItem, ctx: CrawlContext): boolean;
  process(item: CrawlItem, ctx: CrawlContext): StageResult | Promise<StageResult>;
}

/** Adds a remark to the item's crawl-log note. */
export function addNote(item: CrawlItem, note: string): void {
  item.note = item.note ? `${item.note}; ${note}` : note;
}
