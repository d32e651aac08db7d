import { z } from 'zod';
import { EXPORT_FORMATS, collectionSelectionSchema, selectsEverything, takesRequisites } from '../../../../../worker/export/collection-plan';
import { apiRoute, idParam, readOptionalJson } from '../../../../lib/server/handler';
import { exportViews } from '../../../../lib/server/export-views';
import { MAX_OTHER_CRAWLS } from '../../../../../worker/export/export-crawls';
import { existingCrawlId, settledRequest } from '../../../../lib/server/crawl-views';
import { requestExport } from '../../../../../worker/process/crawl-requests';

export const dynamic = 'force-dynamic';
type Params = { id: string };

/**
 * GET /api/crawls/:id/exports [export] → the exports that hold the crawl, newest first, each with the
 * other crawls it takes: those started from it, and those started from another crawl of its ICD that
 * took it, so its page shows every collection it is in.
 */
export const GET = apiRoute<Params>('export', async ({ params, prisma, db }) => {
  const crawlId = await existingCrawlId(prisma, params.id);
  const rows = await prisma.export.findMany({ where: { OR: [{ crawlId }, { otherCrawls: { some: { crawlId } } }] }, orderBy: { id: 'desc' } });
  return exportViews(db, rows);
});

// `selection: null` is the whole crawl, as docs/api.md says and as the API shows an export without one.
const exportRequestSchema = z
  .object({
    selection: collectionSelectionSchema.nullable().optional(),
    format: z.enum(EXPORT_FORMATS).default('warc'),
    pageText: z.boolean().default(false),
    /** Other crawls of the same ICD the export takes besides this one: one collection of them all. */
    otherCrawls: z.array(z.number().int().positive()).max(MAX_OTHER_CRAWLS).default([]),
  })
  .strict()
  .refine((b) => !b.pageText || b.format === 'wacz', { message: 'page text goes into a WACZ package: set format to "wacz"', path: ['pageText'] });

/**
 * POST /api/crawls/:id/exports [export] `{selection?: {hosts, mimeTypes, statusClasses, urlContains, coherence, requisites} | null, format?: 'warc' | 'wacz', pageText?: boolean, otherCrawls?: number[]}`
 * → 201 pending export (its selection saying whether it takes the pages' requisites); the worker verifies and lists the crawl's files or, with a selection,
 * writes the collection's own WARC files and index; as `wacz`, it packages them into one WACZ,
 * its pages.jsonl with each page's visible text when `pageText`. With `otherCrawls` (other crawls of
 * the same ICD), one collection of them all, each capture at its own date (export-job.ts).
 * 400 naming the field of an invalid selection or format; 409 while a worker writes the crawl or is
 * about to (a paused crawl asked to resume), and when one of `otherCrawls` is not another crawl of
 * this ICD or may not be exported now; 404 for a crawl that is not there, deleted a moment before included.
 */
export const POST = apiRoute<Params>('export', async ({ req, params, db, user }) => {
  const crawlId = idParam(params.id);
  const body = await readOptionalJson(req, exportRequestSchema);
  // Stored with `requisites` as taken (takesRequisites), so the export says what it holds.
  const selection = body?.selection && !selectsEverything(body.selection) ? JSON.stringify({ ...body.selection, requisites: takesRequisites(body.selection) }) : null;
  // Answered as stored: read back, it may already be the worker's (running), as a test saw.
  const stored = settledRequest(requestExport(db, crawlId, { requestedById: user.id, selection, format: body?.format ?? 'warc', pageText: body?.pageText ?? false, otherCrawlIds: body?.otherCrawls ?? [] }));
  return Response.json(exportViews(db, [stored])[0], { status: 201 });
});
