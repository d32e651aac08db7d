import { z } from 'zod';
import { canonicalTimeZone, instantOfWallTime, wallTimeAt } from './zoned-time';

/**
 * When an ICD is crawled again by itself: every day, every week on a weekday, or every month on a
 * day, at a time of day in an IANA time zone (UTC unless said otherwise), daylight saving included.
 * Pure: the server's scheduler and the schedule form both use it.
 */
export const CADENCES = ['daily', 'weekly', 'monthly'] as const;
export type Cadence = (typeof CADENCES)[number];

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** Days 29–31 are not in every month: a monthly crawl on the 31st would skip most months. */
export const LAST_MONTH_DAY = 28;

export interface ScheduleSpec {
  cadence: Cadence;
  /** Minutes after midnight, on the clocks of `timeZone`. */
  minuteOfDay: number;
  /** weekly: 0 (Sunday) – 6. */
  weekday: number | null;
  /** monthly: 1 – 28. */
  monthDay: number | null;
  /** IANA name, canonical ("Europe/Paris", "UTC"). */
  timeZone: string;
}

/** "HH:MM" (00:00–23:59) → minutes after midnight; null when it is not such a time. */
export function parseTimeOfDay(text: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

export function formatTimeOfDay(minuteOfDay: number): string {
  return `${String(Math.floor(minuteOfDay / 60)).padStart(2, '0')}:${String(minuteOfDay % 60).padStart(2, '0')}`;
}

const TIME_ZONE_ERROR = 'an IANA time zone such as Europe/Paris, America/New_York or UTC';
const WEEKDAY_ERROR = 'A weekday, 0 (Sunday) to 6 (Saturday)';
const MONTH_DAY_ERROR = `A day of the month, 1 to ${LAST_MONTH_DAY} (days every month has)`;

/** What PUT /api/icds/:id/schedule takes; each field's error names the field, as the form shows it. */
export const scheduleInput = z
  .object({
    cadence: z.enum(CADENCES, { error: 'Choose daily, weekly or monthly' }),
    time: z.string().refine((t) => parseTimeOfDay(t) !== null, { error: 'A time of day, HH:MM (00:00–23:59)' }),
    timeZone: z
      .string({ error: TIME_ZONE_ERROR })
      .refine((t) => canonicalTimeZone(t) !== null, { error: (issue) => `Unknown time zone “${String(issue.input).slice(0, 64)}”: ${TIME_ZONE_ERROR}` })
      .default('UTC'),
    weekday: z.number({ error: WEEKDAY_ERROR }).int({ error: WEEKDAY_ERROR }).min(0, { error: WEEKDAY_ERROR }).max(6, { error: WEEKDAY_ERROR }).nullish(),
    monthDay: z.number({ error: MONTH_DAY_ERROR }).int({ error: MONTH_DAY_ERROR }).min(1, { error: MONTH_DAY_ERROR }).max(LAST_MONTH_DAY, { error: MONTH_DAY_ERROR }).nullish(),
    enabled: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (v.cadence === 'weekly' && v.weekday == null) ctx.addIssue({ code: 'custom', path: ['weekday'], message: 'A weekly crawl needs its weekday' });
    if (v.cadence === 'monthly' && v.monthDay == null) ctx.addIssue({ code: 'custom', path: ['monthDay'], message: 'A monthly crawl needs its day of the month' });
  });
export type ScheduleInput = z.infer<typeof scheduleInput>;

/** The stored form of a valid input: only the field its cadence uses is kept. */
export function toScheduleSpec(input: ScheduleInput): ScheduleSpec {
  return {
    cadence: input.cadence,
    minuteOfDay: parseTimeOfDay(input.time)!,
    weekday: input.cadence === 'weekly' ? input.weekday! : null,
    monthDay: input.cadence === 'monthly' ? input.monthDay! : null,
    timeZone: canonicalTimeZone(input.timeZone)!,
  };
}

/**
 * The first time strictly after `after` that the schedule names, on the clocks of its zone. A time
 * the clocks skip that day (spring forward) is run at the change, the first instant after it; a time
 * they show twice (fall back) is run once, at the first.
 */
export function nextRunAfter(spec: ScheduleSpec, after: Date): Date {
  const hour = Math.floor(spec.minuteOfDay / 60);
  const minute = spec.minuteOfDay % 60;
  // Civil dates as Date.UTC does them (day 32 is the next month's 1st), then placed in the zone.
  const at = (y: number, mo: number, d: number) => {
    const date = new Date(Date.UTC(y, mo, d));
    return instantOfWallTime({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour, minute }, spec.timeZone);
  };
  const today = wallTimeAt(after.getTime(), spec.timeZone);
  const y = today.year;
  const mo = today.month - 1;
  let d = today.day;
  if (spec.cadence === 'monthly') {
    // This month's day may be behind, next month's is not: two steps at most.
    for (let m = mo; ; m++) if (at(y, m, spec.monthDay!) > after.getTime()) return new Date(at(y, m, spec.monthDay!));
  }
  const step = spec.cadence === 'weekly' ? 7 : 1;
  if (spec.cadence === 'weekly') d += (spec.weekday! - new Date(Date.UTC(y, mo, d)).getUTCDay() + 7) % 7;
  // Today's (this week's) time may be behind; the next one is not.
  while (at(y, mo, d) <= after.getTime()) d += step;
  return new Date(at(y, mo, d));
}

/** "every Monday at 03:00 Europe/Paris", as the cockpit says it. */
export function describeSchedule(spec: ScheduleSpec): string {
  const time = `at ${formatTimeOfDay(spec.minuteOfDay)} ${spec.timeZone}`;
  if (spec.cadence === 'daily') return `every day ${time}`;
  if (spec.cadence === 'weekly') return `every ${WEEKDAYS[spec.weekday!]} ${time}`;
  return `on day ${spec.monthDay} of every month ${time}`;
}
