/**
 * A robots.txt answer the cache decided for an origin, as a crawl keeps it across its runs: what
 * rebuilds the verdicts, and `until` (epoch ms), when robots.txt is to be fetched again. Rules
 * keep the text they were read from (at most the 512 KiB RFC 9309 §2.5 asks to read), not the
 * parsed groups: parsed again, with the crawl's user agent, they give the same verdicts and the
 * same Crawl-delay and Sitemap: lines.
 */
export type RobotsAnswer =
  | { kind: 'rules'; text: string; until: number }
  /** 4xx, a redirect that cannot be followed, too many redirects: nothing is disallowed. */
  | { kind: 'allow-all'; until: number }
  /** robots.txt stayed unreachable through its tries: everything is disallowed (robots-unavailable). */
  | { kind: 'disallow-all'; until: number };

/**
 * Where a crawl keeps its robots.txt answers (the SQLite one: crawler/robots-answer-store.ts).
 * The waits of a robots.txt being tried (retry) and of a host no connection could be made to are
 * not kept: a resumed crawl tries such a host's robots.txt at once, as its first run did.
 */
export interface RobotsAnswerStore {
  /** The answer kept for `origin`, or null. */
  find(origin: string): RobotsAnswer | null;
  /** Keeps `answer` for `origin`, in place of the one kept. */
  keep(origin: string, answer: RobotsAnswer): void;
  /** The answer kept for `origin` stands until `until` (a refresh failed, and the answer it would have replaced stays). */
  extend(origin: string, until: number): void;
}
