-- A capture whose body was cut short records its WARC-Truncated value ('length': cut at the size
-- cap; 'time', 'disconnect': a fetch that failed mid-body). Captures stored before are unknown: null.
ALTER TABLE "Capture" ADD COLUMN "truncated" TEXT;
