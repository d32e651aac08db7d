-- CreateTable
CREATE TABLE "User" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "username" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" INTEGER NOT NULL,
    "csrfToken" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Icd" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "definition" TEXT NOT NULL,
    "ownerId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Icd_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Crawl" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "icdId" INTEGER NOT NULL,
    "definition" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'created',
    "desired" TEXT NOT NULL DEFAULT 'run',
    "ownerId" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "stats" TEXT NOT NULL DEFAULT '{}',
    "error" TEXT,
    CONSTRAINT "Crawl_icdId_fkey" FOREIGN KEY ("icdId") REFERENCES "Icd" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Crawl_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CrawlRun" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" DATETIME,
    "reason" TEXT NOT NULL,
    "workerPid" INTEGER,
    CONSTRAINT "CrawlRun_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Capture" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "mime" TEXT,
    "size" INTEGER NOT NULL,
    "payloadDigest" TEXT,
    "recordType" TEXT NOT NULL,
    "warcFile" TEXT NOT NULL,
    "warcOffset" INTEGER NOT NULL,
    "warcLength" INTEGER NOT NULL,
    "warcRecordId" TEXT,
    "depth" INTEGER NOT NULL DEFAULT 0,
    "score" REAL,
    "scoreBreakdown" TEXT,
    "similarity" REAL,
    "fetchedAt" DATETIME NOT NULL,
    "durationMs" INTEGER NOT NULL,
    CONSTRAINT "Capture_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CrawlLogEntry" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "status" INTEGER,
    "outcome" TEXT NOT NULL,
    "message" TEXT,
    "size" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "retries" INTEGER NOT NULL DEFAULT 0,
    "at" DATETIME NOT NULL,
    CONSTRAINT "CrawlLogEntry_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Export" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "requestedById" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "progress" REAL NOT NULL DEFAULT 0,
    "files" TEXT NOT NULL DEFAULT '[]',
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "Export_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Annotation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "captureId" INTEGER,
    "userId" INTEGER,
    "text" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Annotation_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Annotation_captureId_fkey" FOREIGN KEY ("captureId") REFERENCES "Capture" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "KnowledgeBase" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "xml" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "WebObject" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "captureId" INTEGER,
    "url" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "application" TEXT NOT NULL,
    "rule" TEXT NOT NULL,
    "fields" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WebObject_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WebObject_captureId_fkey" FOREIGN KEY ("captureId") REFERENCES "Capture" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AdaptedRule" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER,
    "application" TEXT NOT NULL,
    "originalRule" TEXT NOT NULL,
    "expression" TEXT NOT NULL,
    "provenance" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "User_username_key" ON "User"("username");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "CrawlRun_crawlId_idx" ON "CrawlRun"("crawlId");

-- CreateIndex
CREATE INDEX "Capture_crawlId_id_idx" ON "Capture"("crawlId", "id");

-- CreateIndex
CREATE INDEX "Capture_crawlId_url_idx" ON "Capture"("crawlId", "url");

-- CreateIndex
CREATE INDEX "Capture_crawlId_payloadDigest_idx" ON "Capture"("crawlId", "payloadDigest");

-- CreateIndex
CREATE INDEX "CrawlLogEntry_crawlId_id_idx" ON "CrawlLogEntry"("crawlId", "id");

-- CreateIndex
CREATE INDEX "CrawlLogEntry_crawlId_outcome_idx" ON "CrawlLogEntry"("crawlId", "outcome");

-- CreateIndex
CREATE INDEX "Export_crawlId_idx" ON "Export"("crawlId");

-- CreateIndex
CREATE INDEX "Annotation_crawlId_idx" ON "Annotation"("crawlId");

-- CreateIndex
CREATE UNIQUE INDEX "KnowledgeBase_name_key" ON "KnowledgeBase"("name");

-- CreateIndex
CREATE INDEX "WebObject_crawlId_type_idx" ON "WebObject"("crawlId", "type");
