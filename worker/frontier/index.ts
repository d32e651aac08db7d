/** The crawl frontier: seen-set, per-host priority queues, budgets and polite scheduling. */
export type {
  AddOptions, AddResult, Candidate, CutLinksFoundNearer, CompleteInfo, CrawlFrontierConfig, FailOptions, Frontier, FrontierCounters, HostCounters,
  Lease, Rejected, StateCounts, UpdateFunction, UrlRecord, UrlState,
} from './frontier';
export { SCORE_FLUSH_MS, SqliteFrontier, type SqliteFrontierOptions } from './sqlite-frontier';
export { applyUpdate, firstScore, precedenceOf, provisionalScore, type ScoreState } from './update-functions';
export { seenKey, urlHash } from './url-hash';
export { EMBED_KINDS } from './crawl-state';
