-- A crawl keeps a copy of the knowledge base its ICD names (aah.knowledgeBase), taken when it is
-- created, as it keeps a copy of its ICD: editing the knowledge base in the cockpit changes later
-- crawls, not one under way or resumed. NULL for crawls created before (they run with the shipped
-- knowledge-base/default.xml) and for crawls whose AAH is off.
ALTER TABLE "Crawl" ADD COLUMN "knowledgeBaseName" TEXT;
ALTER TABLE "Crawl" ADD COLUMN "knowledgeBaseXml" TEXT;
