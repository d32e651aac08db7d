-- The crawls list (GET /api/crawls, polled every 3 s) reads these columns of every crawl. In the
-- table they come after "definition", the crawl's ICD copy (up to 10,000 seeds, hundreds of
-- kilobytes in overflow pages): reading any of them walked that copy's whole overflow chain, ~0.5 ms
-- a crawl. This index holds them all, in id order, so the list is read from it alone.
CREATE INDEX "Crawl_list_idx" ON "Crawl"("id", "icdId", "name", "status", "desired", "createdAt", "startedAt", "finishedAt", "error", "knowledgeBaseName", "stats", "ownerId");
