import type { PrismaClient } from '../../../worker/store/prisma';
import type { StuckFiles } from '../../../worker/process/crawl-deletion';
import { parseJsonOr } from './crawl-views';

/**
 * A deleted crawl whose files could not all be removed, as GET /api/crawl-deletions shows it: its
 * disk space is not freed until they are.
 */
export interface StuckDeletionView {
  crawlId: number;
  /** The crawl's name; null for a deletion asked for before names were kept. */
  crawlName: string | null;
  requestedAt: Date;
  /** What stopped the removal of each folder; [] for a deletion recorded before (`error` says it). */
  stuck: StuckFiles[];
  /** The same in words, as the server log has it: `warcs/7/a.warc.gz could not be removed (EPERM)`. */
  error: string;
  /** Failed tries in a row since the crawl's rows were deleted (0: only the DELETE request's try so far). */
  failedTries: number;
  /** When the server tries again on its own; null: once the crawl's rows are deleted (under way). */
  nextTryAt: Date | null;
}

type Row = { crawlId: number; crawlName: string | null; requestedAt: Date; filesError: string | null; stuckFiles: string | null; filesFailures: number; retryFilesAt: Date | null };

const STUCK = { OR: [{ filesError: { not: null } }, { stuckFiles: { not: null } }] };

function view(row: Row): StuckDeletionView {
  const stuck = parseJsonOr<StuckFiles[]>(row.stuckFiles, []);
  return {
    crawlId: row.crawlId, crawlName: row.crawlName, requestedAt: row.requestedAt, stuck, error: row.filesError ?? '',
    failedTries: row.filesFailures, nextTryAt: row.retryFilesAt,
  };
}

/** A page of the deletions whose files could not all be removed, lowest crawl id first, and how many there are. */
export async function stuckDeletions(prisma: PrismaClient, page: { offset: number; limit: number }): Promise<{ items: StuckDeletionView[]; total: number }> {
  const [rows, total] = await Promise.all([
    prisma.crawlDeletion.findMany({ where: STUCK, orderBy: { crawlId: 'asc' }, skip: page.offset, take: page.limit }),
    prisma.crawlDeletion.count({ where: STUCK }),
  ]);
  return { items: rows.map(view), total };
}

/** Crawl `crawlId`'s deletion when its files could not all be removed, else null (none, or all removed). */
export async function stuckDeletion(prisma: PrismaClient, crawlId: number): Promise<StuckDeletionView | null> {
  const row = await prisma.crawlDeletion.findFirst({ where: { crawlId, ...STUCK } });
  return row ? view(row) : null;
}
