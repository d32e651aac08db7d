import { z } from 'zod';
import { HttpError, apiRoute, idParam, readJson } from '../../../../lib/server/handler';
import { existingCrawlId } from '../../../../lib/server/crawl-views';

export const dynamic = 'force-dynamic';

const newAnnotation = z.object({
  captureId: z.number().int().positive().nullable().default(null),
  text: z.string().trim().min(1, 'Write a note').max(5000, 'At most 5,000 characters'),
});

/** An annotation as the cockpit shows it: who wrote it and, for a capture's, its URL. */
interface AnnotationView {
  id: number;
  captureId: number | null;
  url: string | null;
  username: string | null;
  text: string;
  createdAt: Date;
}

/**
 * GET /api/crawls/:id/annotations [view] ?captureId → the crawl's annotations (of one capture
 * with `captureId`), newest first.
 */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma }) => {
  const crawlId = await existingCrawlId(prisma, params.id);
  const captureParam = new URL(req.url).searchParams.get('captureId');
  const rows = await prisma.annotation.findMany({
    where: { crawlId, ...(captureParam ? { captureId: idParam(captureParam) } : {}) },
    orderBy: { id: 'desc' },
    take: 500,
    include: { capture: { select: { url: true } } },
  });
  const userIds = [...new Set(rows.map((r) => r.userId).filter((id): id is number => id !== null))];
  const users = new Map((await prisma.user.findMany({ where: { id: { in: userIds } }, select: { id: true, username: true } })).map((u) => [u.id, u.username]));
  return rows.map((r): AnnotationView => ({ id: r.id, captureId: r.captureId, url: r.capture?.url ?? null, username: r.userId === null ? null : users.get(r.userId) ?? null, text: r.text, createdAt: r.createdAt }));
});

/** POST /api/crawls/:id/annotations [annotate] {captureId?, text} → 201 the annotation (of the crawl, or of one of its captures). */
export const POST = apiRoute<{ id: string }>('annotate', async ({ req, params, prisma, user }) => {
  const crawlId = await existingCrawlId(prisma, params.id);
  const input = await readJson(req, newAnnotation);
  const capture = input.captureId === null ? null : await prisma.capture.findFirst({ where: { id: input.captureId, crawlId }, select: { url: true } });
  if (input.captureId !== null && !capture) throw new HttpError(404, 'No such capture in this crawl');
  const row = await prisma.annotation.create({ data: { crawlId, captureId: input.captureId, userId: user.id, text: input.text } });
  const view: AnnotationView = { id: row.id, captureId: row.captureId, url: capture?.url ?? null, username: user.username, text: row.text, createdAt: row.createdAt };
  return Response.json(view, { status: 201 });
});
