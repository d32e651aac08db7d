/**
 * Online analysis for focused crawling (pure): the topic vector, the scoring modules (text
 * relevance at three granularities, URL patterns, spam-link filter, entities), their weighted
 * aggregation with a per-URL breakdown, batch scoring and the priority update functions.
 */
export {
  buildTopicVector, applyTermReview, topicVectorFromRecord, topicVectorToRecord,
  type TopicVector, type WeightedTerm, type TermReview, type TermsOf, type TopicVectorOptions,
} from './topic-vector';
export {
  combineGranularities, scoreLinkText, DEFAULT_GRANULARITY_WEIGHTS, type GranularityWeights, type LinkTextScores,
} from './text-relevance';
export { compileUrlPatterns, type UrlPattern, type UrlPatternScorer } from './url-pattern-module';
export { compileSpamFilter, spamminessScore, type SpamFilter, type SpamVerdict } from './spam-filter';
export { DEFAULT_BLACKLIST } from './default-blacklist';
export { compileEntities, type EntityDefinition, type EntityMatcher } from './entity-module';
export {
  aggregateScores, DEFAULT_MODULE_WEIGHTS, type ModuleName, type ModuleWeights, type ModuleScores, type ScoreBreakdown,
} from './aggregate';
export {
  createPageAnalyzer, type AnalysisConfig, type PageAnalyzer, type PageInput, type PageLink, type PageAnalysis, type LinkAnalysis, type PageScores, type LinkScores,
} from './page-analyzer';
export { BatchScorer, type BatchScore, type BatchScorerOptions } from './batch-scorer';
export { applyUpdate, priorityOf, EMPTY_HISTORY, type UpdateFunctionName, type ScoreHistory } from './update-functions';
export { analysisConfigFromFocus, type FocusSettings } from './focus-config';
