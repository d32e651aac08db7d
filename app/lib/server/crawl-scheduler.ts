import type { PrismaClient } from '../../../worker/store/prisma';
import { describeSchedule, formatTimeOfDay, nextRunAfter, type Cadence, type ScheduleSpec } from '../schedule-cadence';
import { canonicalTimeZone } from '../zoned-time';
import { can } from '../../../worker/auth/roles';
import { createCrawl } from './crawl-creation';

/** A crawl in one of these states is over: a scheduled time may start the ICD's next one. */
const ENDED = ['stopped', 'finished', 'failed'];

interface ScheduleRow {
  id: number; icdId: number; cadence: string; minuteOfDay: number; timeZone: string; weekday: number | null; monthDay: number | null;
  enabled: boolean; nextRunAt: Date; ownerId: number | null; lastRunAt: Date | null; lastCrawlId: number | null; lastSkip: string | null;
}

function specOf(row: ScheduleRow): ScheduleSpec {
  return { cadence: row.cadence as Cadence, minuteOfDay: row.minuteOfDay, weekday: row.weekday, monthDay: row.monthDay, timeZone: row.timeZone };
}

/** The schedule's next time after `now`; null when its stored zone is one this runtime does not know. */
function nextRunOf(spec: ScheduleSpec, now: Date): Date | null {
  return canonicalTimeZone(spec.timeZone) === null ? null : nextRunAfter(spec, now);
}

/** A schedule as GET /api/icds/:id/schedule gives it (`time` in `timeZone`; instants as ISO strings, UTC; nextRunAt null while it is off). */
export function scheduleView(row: ScheduleRow): ScheduleView {
  const spec = specOf(row);
  return {
    cadence: spec.cadence, time: formatTimeOfDay(spec.minuteOfDay), timeZone: spec.timeZone, weekday: spec.weekday, monthDay: spec.monthDay,
    enabled: row.enabled, description: describeSchedule(spec),
    nextRunAt: row.enabled ? row.nextRunAt.toISOString() : null,
    lastRunAt: row.lastRunAt?.toISOString() ?? null, lastCrawlId: row.lastCrawlId, lastSkip: row.lastSkip, ownerId: row.ownerId,
  };
}

export interface ScheduleView {
  cadence: Cadence; time: string; timeZone: string; weekday: number | null; monthDay: number | null; enabled: boolean; description: string;
  nextRunAt: string | null; lastRunAt: string | null; lastCrawlId: number | null; lastSkip: string | null; ownerId: number | null;
}

/** A schedule in the ICD list: what it says, when it is next due (null while it is off) and the zone its times are told in. */
export function scheduleSummary(row: ScheduleRow): { description: string; nextRunAt: string | null; timeZone: string } {
  const { description, nextRunAt, timeZone } = scheduleView(row);
  return { description: row.enabled ? description : `${description} (off)`, nextRunAt, timeZone };
}

export interface ScheduledStart { icdId: number; crawlId: number | null; skipped: string | null }

/**
 * Starts a crawl of each ICD whose schedule is due at `now`, as "Start a crawl" does and as the
 * schedule's owner, unless a crawl of that ICD is still under way or the owner may no longer start
 * crawls (deleted, or given a role without the run permission): that time is skipped, and the
 * schedule says why. Each schedule then waits for its next time after `now`: a server that was
 * down across several due times starts one crawl when it is back, not one per time missed. A
 * schedule whose stored zone this runtime does not know is turned off, and says so.
 */
export async function runDueSchedules(prisma: PrismaClient, now: Date): Promise<ScheduledStart[]> {
  const due = await prisma.crawlSchedule.findMany({ where: { enabled: true, nextRunAt: { lte: now } }, orderBy: { nextRunAt: 'asc' } });
  const started: ScheduledStart[] = [];
  for (const schedule of due) {
    const nextAt = nextRunOf(specOf(schedule), now);
    if (!nextAt) {
      // No next time can be named: off, rather than failing every pass (and the schedules due after it).
      const skipped = `No crawl started at ${schedule.nextRunAt.toISOString()}: this server knows no time zone “${schedule.timeZone}”; the schedule is off until someone sets it again with a known zone`;
      await prisma.crawlSchedule.updateMany({
        where: { id: schedule.id, nextRunAt: schedule.nextRunAt },
        data: { enabled: false, lastRunAt: now, lastCrawlId: null, lastSkip: skipped },
      });
      started.push({ icdId: schedule.icdId, crawlId: null, skipped });
      continue;
    }
    let crawlId: number | null = null;
    let skipped: string | null = null;
    const under = await prisma.crawl.findFirst({ where: { icdId: schedule.icdId, status: { notIn: ENDED } }, select: { id: true }, orderBy: { id: 'desc' } });
    const owner = schedule.ownerId === null ? null : await prisma.user.findUnique({ where: { id: schedule.ownerId }, select: { username: true, role: true } });
    if (!owner || !can(owner.role, 'run')) {
      // Crawls are started as the schedule's owner: one who may no longer start crawls starts none.
      skipped = `No crawl started at ${schedule.nextRunAt.toISOString()}: ${owner ? `${owner.username}, who set the schedule, may no longer start crawls` : 'the user who set the schedule was deleted'}; someone who may start crawls must set it again`;
    } else if (under) skipped = `Crawl #${under.id} of this definition had not ended at ${schedule.nextRunAt.toISOString()}: that time was skipped`;
    else {
      try {
        crawlId = await createCrawl(prisma, schedule.icdId, schedule.ownerId!);
      } catch (err) {
        skipped = `No crawl started at ${schedule.nextRunAt.toISOString()}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    // Only if nobody changed the schedule meanwhile: their new time stands.
    await prisma.crawlSchedule.updateMany({
      where: { id: schedule.id, nextRunAt: schedule.nextRunAt },
      data: { nextRunAt: nextAt, lastRunAt: now, lastCrawlId: crawlId, lastSkip: skipped },
    });
    started.push({ icdId: schedule.icdId, crawlId, skipped });
  }
  return started;
}

/**
 * The server's loop: looks for due schedules every `everyMs` (and at once), one pass at a time; a
 * pass that fails (the database busy, say) is logged and the next one tries again.
 */
export function startCrawlScheduler(prisma: PrismaClient, log: (line: string) => void, everyMs = 30_000): () => void {
  let running = false;
  const pass = async () => {
    if (running) return;
    running = true;
    try {
      for (const s of await runDueSchedules(prisma, new Date())) {
        log(s.crawlId !== null ? `scheduled crawl #${s.crawlId} of ICD ${s.icdId} started` : `scheduled crawl of ICD ${s.icdId}: ${s.skipped}`);
      }
    } catch (err) {
      log(`crawl scheduler: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      running = false;
    }
  };
  void pass();
  const timer = setInterval(() => void pass(), everyMs);
  return () => clearInterval(timer);
}
