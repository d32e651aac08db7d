/**
 * Robots stage support: a per-crawl robots.txt cache (RFC 9309, robots-parser) whose fetches go
 * through an injected function, so the crawler archives every robots.txt exchange.
 */
export { robotsIgnorePrefixes } from './ignore-prefixes';
export type { RobotsAnswer, RobotsAnswerStore } from './robots-answer';
export { RobotsCache, robotsTxtUrlOf, type RobotsCacheOptions, type RobotsVerdict } from './robots-cache';
export { classifyRobotsResponse, robotsCaptureMessage, robotsFailureMessage, robotsUnansweredMessage, type ConnectionFailure, type RobotsResponse } from './robots-response';
export { parseRobotsRules, robotsProductToken, type RobotsRules } from './robots-rules';
