-- The cockpit shows the deletions whose files could not all be removed (GET /api/crawl-deletions,
-- the crawls list's notice): the crawl's name, kept since its Crawl row is deleted at once, and what
-- stopped the removal of each folder, JSON [{folder, path, failed, code, message}] (StuckFiles in
-- worker/process/crawl-deletion.ts), beside filesError, the same as the server log says it. A row
-- written before has neither: the notice names the crawl by its id and shows filesError.
ALTER TABLE "CrawlDeletion" ADD COLUMN "crawlName" TEXT;
ALTER TABLE "CrawlDeletion" ADD COLUMN "stuckFiles" TEXT;
