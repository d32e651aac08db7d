/** Politeness: per-key delays (pure), the shared registry of key clocks, and clocks. */
export { nextAllowedAt, politenessDelayMs, robotsCrawlDelayMs, type DelayConfig, type KeyTiming } from './politeness-delay';
export { PolitenessRegistry, type KeyHolder, type KeyFreedListener } from './politeness-registry';
export { realClock, SimulatedClock, type Clock } from './clock';
