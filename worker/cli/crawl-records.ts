import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Icd } from '../icd/schema';
import { crawlLogText } from '../store/crawl-log-text';
import { readSeedChains, withMessages } from '../frontier/seed-report';
import { isSeedProblem, seedOutcome } from '../frontier/url-outcome';
import { readRecordLocation } from '../warc/read-record';

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

/** Seeds a summary names at most: a crawl of 10,000 unreachable seeds must not print 10,000 lines. */
export const SEED_PROBLEMS_LISTED = 200;

/**
 * The seeds, of all the crawl's, whose chain ended on a failure, an exclusion, an error status or a
 * cut redirect chain: the first `listed`, and how many more there are (`notListed`).
 */
export async function seedProblems(db: Database.Database, crawlId: number, icd: Icd, warcDir: string, listed = SEED_PROBLEMS_LISTED): Promise<{ problems: SeedProblem[]; notListed: number }> {
  const chains = await readSeedChains(db, crawlId, icd.seeds, icd.scope.queryHandling, (file, offset, length) => readRecordLocation(warcDir, file, offset, length));
  const failing = chains.filter(isSeedProblem);
  // Messages only for the seeds named: reading them costs a pass over the crawl log per 500 URLs.
  const problems = withMessages(db, crawlId, failing.slice(0, listed)).map((row) => ({ seed: row.seed, outcome: seedOutcome(row).steps.join(' ') }));
  return { problems, notListed: failing.length - problems.length };
}
