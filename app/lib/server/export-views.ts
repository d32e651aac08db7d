import type { PrismaClient } from '../../../worker/store/prisma';
import { HttpError } from './handler';

export interface ExportFile {
  name: string;
  bytes: number;
  sha256: string;
}

type ExportRow = { id: number; crawlId: number; status: string; progress: number; files: string; error: string | null; createdAt: Date; finishedAt: Date | null };

export function exportView(row: ExportRow) {
  let files: ExportFile[] = [];
  try {
    files = JSON.parse(row.files) as ExportFile[];
  } catch {
    files = [];
  }
  return { ...row, files };
}

export async function getExport(prisma: PrismaClient, id: number) {
  const row = await prisma.export.findUnique({ where: { id } });
  if (!row) throw new HttpError(404, 'not found');
  return exportView(row);
}
