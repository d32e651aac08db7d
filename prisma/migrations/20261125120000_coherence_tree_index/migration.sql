-- The coherence report reads the tree's columns of every page of a capture. In the table they sit
-- between kilobytes of fingerprints and texts (overflow pages), so reading 100,000 pages read the
-- whole table (~1 GB); this index holds just those columns, in visit order.
CREATE INDEX "CoherencePage_tree_idx" ON "CoherencePage"("crawlId", "id", "url", "parentUrl", "depth", "mime", "status", "changeRate");
