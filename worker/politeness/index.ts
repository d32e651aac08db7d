/** Politeness: per-key delays and the deadlock check of waits for keys (pure), the shared registry of key clocks, and clocks. */
export { nextAllowedAt, nextAllowedAsOf, politenessDelayMs, robotsCrawlDelayMs, timingAsOf, waitEndAsOf, type DelayConfig, type KeyTiming } from './politeness-delay';
export { closesWaitCycle, type KeyWait } from './key-waits';
export { PolitenessRegistry, type KeyHolder, type KeyFreedListener, type KeyTurnLine, type HostChangedListener } from './politeness-registry';
export { realClock, SimulatedClock, startStopwatch, type Clock } from './clock';
export { afterUrlEnded, heldBack, holdUntil, isTry, HOST_UNREACHABLE, MAX_HOST_BACKOFF_MS, type HostOutage, type HostOutageLimits, type OutageEvent } from './host-outage';
