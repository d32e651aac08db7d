import { z } from 'zod';

/**
 * When an ICD is crawled again by itself: every day, every week on a weekday, or every month on a
 * day, at a time of day in UTC. Pure: the server's scheduler and the schedule form both use it.
 */
export const CADENCES = ['daily', 'weekly', 'monthly'] as const;
export type Cadence = (typeof CADENCES)[number];

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** Days 29–31 are not in every month: a monthly crawl on the 31st would skip most months. */
export const LAST_MONTH_DAY = 28;

export interface ScheduleSpec {
  cadence: Cadence;
  /** Minutes after midnight, UTC. */
  minuteOfDay: number;
  /** weekly: 0 (Sunday) – 6. */
  weekday: number | null;
  /** monthly: 1 – 28. */
  monthDay: number | null;
}

/** "HH:MM" (00:00–23:59) → minutes after midnight; null when it is not such a time. */
export function parseTimeOfDay(text: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

export function formatTimeOfDay(minuteOfDay: number): string {
  return `${String(Math.floor(minuteOfDay / 60)).padStart(2, '0')}:${String(minuteOfDay % 60).padStart(2, '0')}`;
}

const WEEKDAY_ERROR = 'A weekday, 0 (Sunday) to 6 (Saturday)';
const MONTH_DAY_ERROR = `A day of the month, 1 to ${LAST_MONTH_DAY} (days every month has)`;

/** What PUT /api/icds/:id/schedule takes; each field's error names the field, as the form shows it. */
export const scheduleInput = z
  .object({
    cadence: z.enum(CADENCES, { error: 'Choose daily, weekly or monthly' }),
    time: z.string().refine((t) => parseTimeOfDay(t) !== null, { error: 'A time of day, HH:MM in UTC (00:00–23:59)' }),
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
  };
}

/** The first time strictly after `after` that the schedule names. */
export function nextRunAfter(spec: ScheduleSpec, after: Date): Date {
  const hours = Math.floor(spec.minuteOfDay / 60);
  const minutes = spec.minuteOfDay % 60;
  const at = (y: number, mo: number, d: number) => new Date(Date.UTC(y, mo, d, hours, minutes));
  const y = after.getUTCFullYear();
  const mo = after.getUTCMonth();
  const d = after.getUTCDate();
  if (spec.cadence === 'monthly') {
    const thisMonth = at(y, mo, spec.monthDay!);
    return thisMonth > after ? thisMonth : at(y, mo + 1, spec.monthDay!);
  }
  let candidate = at(y, mo, d);
  if (spec.cadence === 'weekly') candidate = at(y, mo, d + ((spec.weekday! - candidate.getUTCDay() + 7) % 7));
  if (candidate > after) return candidate;
  return at(candidate.getUTCFullYear(), candidate.getUTCMonth(), candidate.getUTCDate() + (spec.cadence === 'weekly' ? 7 : 1));
}

/** "every Monday at 03:00 UTC", as the cockpit says it. */
export function describeSchedule(spec: ScheduleSpec): string {
  const time = `at ${formatTimeOfDay(spec.minuteOfDay)} UTC`;
  if (spec.cadence === 'daily') return `every day ${time}`;
  if (spec.cadence === 'weekly') return `every ${WEEKDAYS[spec.weekday!]} ${time}`;
  return `on day ${spec.monthDay} of every month ${time}`;
}
