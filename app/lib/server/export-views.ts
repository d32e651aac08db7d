import type { PrismaClient } from '../../../worker/store/prisma';
import type { CollectionSelection } from '../../../worker/export/collection-plan';
import { parseJsonOr } from './crawl-views';
import { HttpError } from './handler';

export interface ExportFile {
  name: string;
  bytes: number;
  sha256: string;
}

type ExportRow = { id: number; crawlId: number; status: string; progress: number; files: string; selection: string | null; format: string; pageText: boolean; error: string | null; createdAt: Date; finishedAt: Date | null };

/** An export as the API shows it: its files, and its selection (null: the whole crawl). */
export function exportView(row: ExportRow) {
  return { ...row, files: parseJsonOr<ExportFile[]>(row.files, []), selection: parseJsonOr<CollectionSelection | null>(row.selection, null) };
}

export async function getExport(prisma: PrismaClient, id: number) {
  const row = await prisma.export.findUnique({ where: { id } });
  if (!row) throw new HttpError(404, 'not found');
  return exportView(row);
}
