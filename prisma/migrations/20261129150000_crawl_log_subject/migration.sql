-- A robots.txt request's own crawl-log entry is marked 'robots' (no page's: the failure counters leave
-- it out), rather than told apart by its message. Entries written before: a robots.txt request that
-- got no answer (no status, its message's fixed opening) and an archived robots.txt (its message).
ALTER TABLE "CrawlLogEntry" ADD COLUMN "subject" TEXT;
UPDATE "CrawlLogEntry" SET "subject" = 'robots'
  WHERE ("status" IS NULL AND "message" LIKE 'robots.txt request got no answer%')
     OR ("status" IS NOT NULL AND "message" = 'robots.txt');
