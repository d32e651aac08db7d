import type { PrismaClient } from '../../../../../worker/store/prisma';
import { HttpError, apiRoute, idParam, readJson } from '../../../../lib/server/handler';
import { nextRunAfter, scheduleInput, toScheduleSpec } from '../../../../lib/schedule-cadence';
import { scheduleView } from '../../../../lib/server/crawl-scheduler';

export const dynamic = 'force-dynamic';
type Params = { id: string };

async function existingIcd(prisma: PrismaClient, id: number): Promise<void> {
  if (!(await prisma.icd.findUnique({ where: { id }, select: { id: true } }))) throw new HttpError(404, 'not found');
}

/** GET /api/icds/:id/schedule [view] → {schedule}: the ICD's schedule, or null when it has none. */
export const GET = apiRoute<Params>('view', async ({ params, prisma }) => {
  const id = idParam(params.id);
  await existingIcd(prisma, id);
  const row = await prisma.crawlSchedule.findUnique({ where: { icdId: id } });
  return { schedule: row ? scheduleView(row) : null };
});

/**
 * PUT /api/icds/:id/schedule [run] {cadence: daily|weekly|monthly, time: "HH:MM", timeZone (IANA,
 * "UTC" by default), weekday (weekly: 0 Sunday – 6), monthDay (monthly: 1–28), enabled} → {schedule}:
 * sets the ICD's schedule, next due at the first such time from now on the zone's clocks; the crawls
 * it starts are the caller's. 400 with the field's issue for a missing or wrong field (an unknown zone).
 */
export const PUT = apiRoute<Params>('run', async ({ req, params, prisma, user }) => {
  const id = idParam(params.id);
  const input = await readJson(req, scheduleInput);
  await existingIcd(prisma, id);
  const spec = toScheduleSpec(input);
  const data = { ...spec, enabled: input.enabled, nextRunAt: nextRunAfter(spec, new Date()), ownerId: user.id };
  const row = await prisma.crawlSchedule.upsert({ where: { icdId: id }, create: { icdId: id, ...data }, update: data });
  return { schedule: scheduleView(row) };
});

/** DELETE /api/icds/:id/schedule [run] → 204: the ICD is no longer crawled by itself (its crawls stay). */
export const DELETE = apiRoute<Params>('run', async ({ params, prisma }) => {
  const id = idParam(params.id);
  await existingIcd(prisma, id);
  await prisma.crawlSchedule.deleteMany({ where: { icdId: id } });
  return undefined;
});
