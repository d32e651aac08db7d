-- A revisit, a recrawl's refetch or a feed poll that its host's unanswered robots.txt kept from being
-- requested was logged without the notRequested mark until 19bb4ca, which 20261130020000 could not tell
-- from its message alone. Such an entry: no subject, no status, 0 ms and no retry, its message ending
-- with the reason robots.txt gave (worker/robots/robots-response.ts, robotsFailureMessage) after the
-- request's own words ("feed poll failed: ", "…; no answer about the page: ").
UPDATE "CrawlLogEntry" SET "notRequested" = true
  WHERE "notRequested" = false AND "subject" IS NULL AND "status" IS NULL AND "durationMs" = 0 AND "retries" = 0
    AND ("message" LIKE '%: no connection to the host for robots.txt (%'
      OR "message" LIKE '%: no answer from the host for robots.txt, tried %');
