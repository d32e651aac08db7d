-- The cookies a crawl keeps, saved while it runs so that a resumed crawl has them
-- (worker/store/cookie-jar-store.ts).
CREATE TABLE "CrawlCookieJar" (
    "crawlId" INTEGER NOT NULL PRIMARY KEY,
    "cookies" TEXT NOT NULL,
    "savedAt" DATETIME NOT NULL,
    CONSTRAINT "CrawlCookieJar_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
