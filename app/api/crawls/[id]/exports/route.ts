import { z } from 'zod';
import { EXPORT_FORMATS, collectionSelectionSchema, selectsEverything } from '../../../../../worker/export/collection-plan';
import { HttpError, apiRoute, idParam, readOptionalJson } from '../../../../lib/server/handler';
import { exportView } from '../../../../lib/server/export-views';
import { existingCrawlId } from '../../../../lib/server/crawl-views';
import { canExport } from '../../../../../worker/process/crawl-control';

export const dynamic = 'force-dynamic';
type Params = { id: string };

/** GET /api/crawls/:id/exports [export] → the crawl's exports, newest first. */
export const GET = apiRoute<Params>('export', async ({ params, prisma }) => {
  const rows = await prisma.export.findMany({ where: { crawlId: await existingCrawlId(prisma, params.id) }, orderBy: { id: 'desc' } });
  return rows.map(exportView);
});

// `selection: null` is the whole crawl, as docs/api.md says and as the API shows an export without one.
const exportRequestSchema = z
  .object({ selection: collectionSelectionSchema.nullable().optional(), format: z.enum(EXPORT_FORMATS).default('warc'), pageText: z.boolean().default(false) })
  .strict()
  .refine((b) => !b.pageText || b.format === 'wacz', { message: 'page text goes into a WACZ package: set format to "wacz"', path: ['pageText'] });

/**
 * POST /api/crawls/:id/exports [export] `{selection?: {hosts, mimeTypes, statusClasses, urlContains, coherence} | null, format?: 'warc' | 'wacz', pageText?: boolean}`
 * → 201 pending export; the worker verifies and lists the crawl's files or, with a selection,
 * writes the collection's own WARC files and index; as `wacz`, it packages them into one WACZ,
 * its pages.jsonl with each page's visible text when `pageText`.
 * 400 naming the field of an invalid selection or format; 409 while a worker writes the crawl or is
 * about to (a paused crawl asked to resume).
 */
export const POST = apiRoute<Params>('export', async ({ req, params, prisma, user }) => {
  const crawlId = idParam(params.id);
  const body = await readOptionalJson(req, exportRequestSchema);
  const crawl = await prisma.crawl.findUnique({ where: { id: crawlId }, select: { status: true, desired: true } });
  if (!crawl) throw new HttpError(404, 'not found');
  if (!canExport(crawl.status, crawl.desired)) {
    const state = crawl.status === 'paused' ? 'being resumed' : crawl.status;
    throw new HttpError(409, `The crawl is ${state}: pause, stop or let it finish before exporting`);
  }
  const selection = body?.selection && !selectsEverything(body.selection) ? JSON.stringify(body.selection) : null;
  const row = await prisma.export.create({ data: { crawlId, requestedById: user.id, selection, format: body?.format ?? 'warc', pageText: body?.pageText ?? false } });
  return Response.json(exportView(row), { status: 201 });
});
