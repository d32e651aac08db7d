-- An export may select part of a crawl (a collection): its filters as JSON, null for the whole crawl (worker/export/collection-plan.ts).
ALTER TABLE "Export" ADD COLUMN "selection" TEXT;
