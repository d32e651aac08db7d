import type Database from 'better-sqlite3';
import type { PrismaClient } from '../../../worker/store/prisma';
import { otherCrawlsOf, type OtherCrawl } from '../../../worker/export/export-crawls';
import type { CollectionSelection } from '../../../worker/export/collection-plan';
import { parseJsonOr } from './crawl-views';
import { HttpError } from './handler';

export interface ExportFile {
  name: string;
  bytes: number;
  sha256: string;
}

type ExportRow = { id: number; crawlId: number; status: string; progress: number; files: string; selection: string | null; format: string; pageText: boolean; error: string | null; createdAt: Date; finishedAt: Date | null };

/**
 * An export as the API shows it: its files, its selection (null: the whole crawl), and the other
 * crawls of its ICD it takes besides its own (`name` null once that crawl was deleted).
 */
export function exportView(row: ExportRow, otherCrawls: readonly OtherCrawl[] = []) {
  return { ...row, files: parseJsonOr<ExportFile[]>(row.files, []), selection: parseJsonOr<CollectionSelection | null>(row.selection, null), otherCrawls };
}

/** exportView of each row, with the other crawls each takes. */
export function exportViews(db: Database.Database, rows: readonly ExportRow[]) {
  const others = otherCrawlsOf(db, rows.map((r) => r.id));
  return rows.map((r) => exportView(r, others.get(r.id)));
}

export async function getExport(prisma: PrismaClient, db: Database.Database, id: number) {
  const row = await prisma.export.findUnique({ where: { id } });
  if (!row) throw new HttpError(404, 'not found');
  return exportViews(db, [row])[0]!;
}
