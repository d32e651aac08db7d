-- A deletion whose files cannot all be removed (an immutable file, a folder without write
-- permission, EBUSY) keeps its row with the error and a retry time, doubling with each failure in a
-- row, and the background deletion goes on with the next crawl: before, files were removed before
-- rows, lowest crawl id first, so the same failure stopped every later deletion at that crawl.
ALTER TABLE "CrawlDeletion" ADD COLUMN "filesError" TEXT;
ALTER TABLE "CrawlDeletion" ADD COLUMN "filesFailures" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "CrawlDeletion" ADD COLUMN "retryFilesAt" DATETIME;
