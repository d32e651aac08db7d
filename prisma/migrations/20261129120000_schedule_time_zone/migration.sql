-- Scheduled crawls in the institution's time zone: the time of day of a schedule is on the clocks of
-- this IANA zone, daylight saving followed. Schedules set before were in UTC, and stay so.
ALTER TABLE "CrawlSchedule" ADD COLUMN "timeZone" TEXT NOT NULL DEFAULT 'UTC';
