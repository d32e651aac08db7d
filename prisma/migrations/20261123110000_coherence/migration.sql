-- CreateTable
CREATE TABLE "CoherencePage" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "parentUrl" TEXT,
    "depth" INTEGER NOT NULL,
    "mime" TEXT,
    "visitedAt" DATETIME NOT NULL,
    "visit" TEXT NOT NULL,
    "visitText" TEXT NOT NULL,
    "revisitedAt" DATETIME,
    "revisit" TEXT,
    "revisitText" TEXT,
    "status" TEXT,
    "evidence" TEXT,
    "similarity" REAL,
    "changeRate" REAL,
    "verdict" TEXT
);

-- CreateTable
CREATE TABLE "CoherenceRun" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "referenceTime" DATETIME NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME,
    "summary" TEXT
);

-- CreateIndex
CREATE INDEX "CoherencePage_crawlId_status_idx" ON "CoherencePage"("crawlId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "CoherencePage_crawlId_url_key" ON "CoherencePage"("crawlId", "url");

-- CreateIndex
CREATE UNIQUE INDEX "CoherenceRun_crawlId_key" ON "CoherenceRun"("crawlId");
