-- A crawl whose deletion was asked for: its Crawl row is deleted at once (the cockpit no longer
-- shows it, nor resumes or exports it), its other rows afterwards in short transactions
-- (worker/process/crawl-deletion.ts), and this row last, so a server that stops midway goes on at
-- its next start. exportIds: the exports deleted with it, JSON, whose folders are removed.
CREATE TABLE "CrawlDeletion" (
    "crawlId" INTEGER NOT NULL PRIMARY KEY,
    "exportIds" TEXT NOT NULL DEFAULT '[]',
    "requestedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
