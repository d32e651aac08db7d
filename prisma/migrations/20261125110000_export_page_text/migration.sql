-- A WACZ export may carry each page's visible text in pages.jsonl (ReplayWeb.page's full-text search).
ALTER TABLE "Export" ADD COLUMN "pageText" BOOLEAN NOT NULL DEFAULT false;
