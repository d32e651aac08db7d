-- Recrawls compare a page's Web objects with those of its previous capture (worker/store/web-object-history.ts).
CREATE INDEX "WebObject_crawlId_url_idx" ON "WebObject"("crawlId", "url");
