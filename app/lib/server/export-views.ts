import type { PrismaClient } from '../../../worker/store/prisma';
import type { CollectionSelection } from '../../../worker/export/collection-plan';
import { HttpError } from './handler';

export interface ExportFile {
  name: string;
  bytes: number;
  sha256: string;
}

type ExportRow = { id: number; crawlId: number; status: string; progress: number; files: string; selection: string | null; error: string | null; createdAt: Date; finishedAt: Date | null };

function parsed<T>(text: string | null, fallback: T): T {
  try {
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

/** An export as the API shows it: its files, and its selection (null: the whole crawl). */
export function exportView(row: ExportRow) {
  return { ...row, files: parsed<ExportFile[]>(row.files, []), selection: parsed<CollectionSelection | null>(row.selection, null) };
}

export async function getExport(prisma: PrismaClient, id: number) {
  const row = await prisma.export.findUnique({ where: { id } });
  if (!row) throw new HttpError(404, 'not found');
  return exportView(row);
}
