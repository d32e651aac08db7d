-- A crawl's captures counted by media type and WARC record type, with their payloads' bytes and the
-- bytes their records take in the WARC files, kept by triggers on Capture: the report's mimeTypes and
-- records read these few rows instead of grouping all of a crawl's captures. mime '' stands for a
-- capture without one (null; the crawl stores none empty: mediaTypeOf).
CREATE TABLE "CaptureTally" (
    "crawlId" INTEGER NOT NULL,
    "mime" TEXT NOT NULL,
    "recordType" TEXT NOT NULL,
    "captures" INTEGER NOT NULL,
    "bytes" BIGINT NOT NULL,
    "warcBytes" BIGINT NOT NULL,

    PRIMARY KEY ("crawlId", "mime", "recordType"),
    CONSTRAINT "CaptureTally_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- The captures stored before this migration.
INSERT INTO "CaptureTally" ("crawlId", "mime", "recordType", "captures", "bytes", "warcBytes")
SELECT "crawlId", IFNULL("mime", ''), "recordType", COUNT(*), SUM("size"), SUM("warcLength") FROM "Capture" GROUP BY "crawlId", IFNULL("mime", ''), "recordType";

-- One UPSERT a capture: the crawl's commits insert hundreds a second.
CREATE TRIGGER "Capture_tally" AFTER INSERT ON "Capture" BEGIN
    INSERT INTO "CaptureTally" ("crawlId", "mime", "recordType", "captures", "bytes", "warcBytes") VALUES (NEW."crawlId", IFNULL(NEW."mime", ''), NEW."recordType", 1, NEW."size", NEW."warcLength")
    ON CONFLICT ("crawlId", "mime", "recordType") DO UPDATE SET "captures" = "captures" + 1, "bytes" = "bytes" + excluded."bytes", "warcBytes" = "warcBytes" + excluded."warcBytes";
END;

-- Captures are written once and deleted with their crawl (whose tallies go with it, before its
-- captures: worker/process/crawl-deletion.ts), so these two find nothing to do today; they keep the
-- counts exact should a capture's counted columns ever change or a capture go alone. A group left
-- with no capture loses its row, as a GROUP BY would.
CREATE TRIGGER "Capture_tally_delete" AFTER DELETE ON "Capture" BEGIN
    UPDATE "CaptureTally" SET "captures" = "captures" - 1, "bytes" = "bytes" - OLD."size", "warcBytes" = "warcBytes" - OLD."warcLength"
    WHERE "crawlId" = OLD."crawlId" AND "mime" = IFNULL(OLD."mime", '') AND "recordType" = OLD."recordType";
    DELETE FROM "CaptureTally" WHERE "crawlId" = OLD."crawlId" AND "mime" = IFNULL(OLD."mime", '') AND "recordType" = OLD."recordType" AND "captures" = 0;
END;

CREATE TRIGGER "Capture_tally_update" AFTER UPDATE OF "crawlId", "mime", "recordType", "size", "warcLength" ON "Capture" BEGIN
    UPDATE "CaptureTally" SET "captures" = "captures" - 1, "bytes" = "bytes" - OLD."size", "warcBytes" = "warcBytes" - OLD."warcLength"
    WHERE "crawlId" = OLD."crawlId" AND "mime" = IFNULL(OLD."mime", '') AND "recordType" = OLD."recordType";
    DELETE FROM "CaptureTally" WHERE "crawlId" = OLD."crawlId" AND "mime" = IFNULL(OLD."mime", '') AND "recordType" = OLD."recordType" AND "captures" = 0;
    INSERT INTO "CaptureTally" ("crawlId", "mime", "recordType", "captures", "bytes", "warcBytes") VALUES (NEW."crawlId", IFNULL(NEW."mime", ''), NEW."recordType", 1, NEW."size", NEW."warcLength")
    ON CONFLICT ("crawlId", "mime", "recordType") DO UPDATE SET "captures" = "captures" + 1, "bytes" = "bytes" + excluded."bytes", "warcBytes" = "warcBytes" + excluded."warcBytes";
END;
