-- A page the crawl did not request because its host's robots.txt got no answer (RFC 9309) is marked, so
-- the hosts report, which counts requests, does not count it as a fetch (its 0 ms and 0 retries are no
-- mark: a refused connection on loopback takes 0 ms too). Entries written before: a page's (no subject),
-- no status, its message ending as the robots stage wrote it.
ALTER TABLE "CrawlLogEntry" ADD COLUMN "notRequested" BOOLEAN NOT NULL DEFAULT false;
UPDATE "CrawlLogEntry" SET "notRequested" = true
  WHERE "subject" IS NULL AND "status" IS NULL AND "message" LIKE '%; the page was not requested';
