-- A crawl's crawl-log entries counted by outcome and status, and by host, outcome and notRequested
-- with their sizes, kept by a trigger on each insert: the crawl log's filter counts and total, the
-- statuses report and the hosts report read these few rows instead of the whole log. The host is
-- HOST_OF_URL_SQL's (worker/store/sql-url.ts), written out for the trigger's NEW row: a change to
-- that expression needs a migration that makes the trigger again.
CREATE TABLE "CrawlLogTally" (
    "crawlId" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "entries" INTEGER NOT NULL,

    PRIMARY KEY ("crawlId", "outcome", "status"),
    CONSTRAINT "CrawlLogTally_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "CrawlHostTally" (
    "crawlId" INTEGER NOT NULL,
    "host" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "notRequested" BOOLEAN NOT NULL,
    "entries" INTEGER NOT NULL,
    "bytes" BIGINT NOT NULL,

    PRIMARY KEY ("crawlId", "host", "outcome", "notRequested"),
    CONSTRAINT "CrawlHostTally_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- The entries logged before this migration.
INSERT INTO "CrawlLogTally" ("crawlId", "outcome", "status", "entries")
SELECT "crawlId", "outcome", IFNULL("status", 0), COUNT(*) FROM "CrawlLogEntry" GROUP BY "crawlId", "outcome", IFNULL("status", 0);

INSERT INTO "CrawlHostTally" ("crawlId", "host", "outcome", "notRequested", "entries", "bytes")
SELECT "crawlId", CASE WHEN instr(substr("url", instr("url", '://') + 3), '/') > 0 THEN substr(substr("url", instr("url", '://') + 3), 1, instr(substr("url", instr("url", '://') + 3), '/') - 1) ELSE substr("url", instr("url", '://') + 3) END, "outcome", "notRequested", COUNT(*), SUM("size") FROM "CrawlLogEntry"
GROUP BY "crawlId", CASE WHEN instr(substr("url", instr("url", '://') + 3), '/') > 0 THEN substr(substr("url", instr("url", '://') + 3), 1, instr(substr("url", instr("url", '://') + 3), '/') - 1) ELSE substr("url", instr("url", '://') + 3) END, "outcome", "notRequested";

CREATE TRIGGER "CrawlLogEntry_tally" AFTER INSERT ON "CrawlLogEntry" BEGIN
    INSERT INTO "CrawlLogTally" ("crawlId", "outcome", "status", "entries") VALUES (NEW."crawlId", NEW."outcome", IFNULL(NEW."status", 0), 1)
    ON CONFLICT ("crawlId", "outcome", "status") DO UPDATE SET "entries" = "entries" + 1;
    INSERT INTO "CrawlHostTally" ("crawlId", "host", "outcome", "notRequested", "entries", "bytes")
    VALUES (NEW."crawlId", CASE WHEN instr(substr(NEW."url", instr(NEW."url", '://') + 3), '/') > 0 THEN substr(substr(NEW."url", instr(NEW."url", '://') + 3), 1, instr(substr(NEW."url", instr(NEW."url", '://') + 3), '/') - 1) ELSE substr(NEW."url", instr(NEW."url", '://') + 3) END, NEW."outcome", NEW."notRequested", 1, NEW."size")
    ON CONFLICT ("crawlId", "host", "outcome", "notRequested") DO UPDATE SET "entries" = "entries" + 1, "bytes" = "bytes" + excluded."bytes";
END;
