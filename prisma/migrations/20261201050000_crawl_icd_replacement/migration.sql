-- The stored ICD settings replaced so that a crawl an earlier version created, with settings this
-- version refuses, could be resumed (worker/icd/stored-icd-repair.ts): what was replaced, by what,
-- and the definition as it was, so the captures made before keep their provenance.
CREATE TABLE "CrawlIcdReplacement" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "replacedAt" DATETIME NOT NULL,
    "source" TEXT NOT NULL,
    "replacedById" INTEGER,
    "changes" TEXT NOT NULL,
    "previousDefinition" TEXT NOT NULL,
    CONSTRAINT "CrawlIcdReplacement_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "CrawlIcdReplacement_crawlId_idx" ON "CrawlIcdReplacement"("crawlId");
