-- Exclude patterns added to a crawl while it runs (live exclusions). The pattern also goes into the
-- crawl's ICD copy (Crawl.definition); a row here marks it as added live and says when the worker
-- applied it to the crawl's frontier (NULL until then: a paused crawl applies it when it runs).
CREATE TABLE "CrawlExclusion" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "pattern" TEXT NOT NULL,
    "addedById" INTEGER,
    "addedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "appliedAt" DATETIME,
    "excluded" INTEGER,
    CONSTRAINT "CrawlExclusion_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "CrawlExclusion_crawlId_pattern_key" ON "CrawlExclusion"("crawlId", "pattern");
