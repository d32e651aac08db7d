-- An HTML page's title, kept with its capture (the captures table, a WACZ's page list).
ALTER TABLE "Capture" ADD COLUMN "title" TEXT;
