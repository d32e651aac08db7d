-- An export hands out WARC files and their CDXJ index ('warc'), or one WACZ package of them ('wacz').
ALTER TABLE "Export" ADD COLUMN "format" TEXT NOT NULL DEFAULT 'warc';
