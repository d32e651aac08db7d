-- An export can be cancelled while pending or running (status 'cancelled'): who cancelled it (their
-- user name as it was then) and when.
ALTER TABLE "Export" ADD COLUMN "cancelledBy" TEXT;
ALTER TABLE "Export" ADD COLUMN "cancelledAt" DATETIME;
