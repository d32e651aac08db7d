import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Icd } from '../icd/schema';
import { crawlLogText } from '../store/crawl-log-text';
import { readSeedReport } from '../frontier/seed-report';
import { seedOutcome } from '../frontier/url-outcome';
import { readRecordHttpHeader } from '../warc/read-record';

/**
 * What a CLI crawl leaves for the archivist beside its WARC files, as Heritrix leaves crawl.log and
 * its seeds report: the whole crawl log as a file, and the seeds that did not end on a capture.
 */

/** The crawl log's file in `--out`, every run's entries (worker/store/crawl-log-text.ts). */
export const CLI_CRAWL_LOG_NAME = 'crawl-log.tsv';

/** Writes the crawl's whole log to `out`/crawl-log.tsv (through a temporary file: a reader never sees half of it); its path. */
export function writeCrawlLogFile(db: Database.Database, crawlId: number, out: string): string {
  const path = join(out, CLI_CRAWL_LOG_NAME);
  const partial = `${path}.tmp`;
  const fd = openSync(partial, 'w');
  try {
    for (const piece of crawlLogText(db, crawlId)) writeSync(fd, piece);
  } catch (err) {
    closeSync(fd);
    rmSync(partial, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(partial, path);
  return path;
}

/** A seed that went wrong, and how (the seeds report's steps on one line). */
export interface SeedProblem {
  seed: string;
  outcome: string;
}

/** The seeds (the first 200) whose chain ended on a failure, an exclusion, an error status or a cut redirect chain. */
export async function seedProblems(db: Database.Database, crawlId: number, icd: Icd, warcDir: string): Promise<SeedProblem[]> {
  const rows = await readSeedReport(db, crawlId, icd.seeds, icd.scope.queryHandling, 200, (file, offset, length) => readRecordHttpHeader(warcDir, file, offset, length, 'location'));
  return rows.flatMap((row) => {
    const outcome = seedOutcome(row);
    return outcome.problem ? [{ seed: row.seed, outcome: outcome.steps.join(' ') }] : [];
  });
}
