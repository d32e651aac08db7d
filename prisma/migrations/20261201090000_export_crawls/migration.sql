-- The crawls an export takes besides the one it was started from (Export.crawlId): a collection of
-- several crawls of one ICD. No foreign key to Crawl: a finished export outlives a crawl it took.
CREATE TABLE "ExportCrawl" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "exportId" INTEGER NOT NULL,
    "crawlId" INTEGER NOT NULL,
    CONSTRAINT "ExportCrawl_exportId_fkey" FOREIGN KEY ("exportId") REFERENCES "Export" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "ExportCrawl_exportId_crawlId_key" ON "ExportCrawl"("exportId", "crawlId");
CREATE INDEX "ExportCrawl_crawlId_idx" ON "ExportCrawl"("crawlId");
