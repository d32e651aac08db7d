-- A WACZ lists a crawl's pages seeds first, by depth then id, a thousand at a time: without an index
-- in that order each batch read and sorted all the crawl's captures (export-job.ts, waczPages).
CREATE INDEX "Capture_crawlId_depth_id_idx" ON "Capture"("crawlId", "depth", "id");
