-- Scheduled crawls: an ICD crawled again by itself, daily, weekly or monthly at a time of day (UTC).
CREATE TABLE "CrawlSchedule" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "icdId" INTEGER NOT NULL,
    "cadence" TEXT NOT NULL,
    "minuteOfDay" INTEGER NOT NULL,
    "weekday" INTEGER,
    "monthDay" INTEGER,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "nextRunAt" DATETIME NOT NULL,
    "ownerId" INTEGER,
    "lastRunAt" DATETIME,
    "lastCrawlId" INTEGER,
    "lastSkip" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "CrawlSchedule_icdId_fkey" FOREIGN KEY ("icdId") REFERENCES "Icd" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "CrawlSchedule_icdId_key" ON "CrawlSchedule"("icdId");
CREATE INDEX "CrawlSchedule_nextRunAt_idx" ON "CrawlSchedule"("nextRunAt");
