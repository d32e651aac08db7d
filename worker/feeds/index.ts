/** Feed monitoring (advaRSS): posting-rate model and poll scheduler. */
export { estimateHourlyRates, expectedArticles, expectedWaitingHours, type HourlyRates } from './posting-rate-model';
export { FeedScheduler, type FeedMemory, type FeedSchedulerOptions, type PollingPolicy } from './feed-scheduler';
