import type Database from 'better-sqlite3';
import type { Icd } from '../../../worker/icd/schema';
import { readSeedReport } from '../../../worker/frontier/seed-report';
import type { SeedReportRow } from '../../../worker/frontier/seed-chain';
import { readRecordLocation } from '../../../worker/warc/read-record';
import { crawlWarcDir } from '../../../worker/store/data-layout';
import { services } from './services';

/** Most seeds a page of the seeds report lists (each may mean reading its redirects' records). */
export const SEEDS_PER_PAGE = 200;

/** The seeds report (worker/frontier/seed-report.ts) of the crawl's seeds `offset` to `offset + limit`, in its ICD's order. */
export function seedReportPage(db: Database.Database, crawlId: number, icd: Icd, offset: number, limit: number): Promise<SeedReportRow[]> {
  const warcDir = crawlWarcDir(services().env.dataDir, crawlId);
  return readSeedReport(db, crawlId, icd.seeds.slice(offset, offset + limit), icd.scope.queryHandling, limit, (file, at, length) => readRecordLocation(warcDir, file, at, length));
}
