/** Feed monitoring (advaRSS): posting-rate model and poll scheduler. */
export { estimateHourlyRates, expectedArticles, expectedWaitingHours, type HourlyRates } from './posting-rate-model';
export { FeedScheduler, type FeedMemory, type FeedSchedulerOptions, type PollingPolicy } from './feed-scheduler';
export { addPoll, RECENT_POLLS, type FeedPoll, type FeedPollOutcome, type FeedPollSummary } from './poll-summary';
export { crawlPollingOptions, periodAfter, plannedPolls, PLANNED_PERIODS } from './poll-plan';
