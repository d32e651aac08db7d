/** When a scheduled crawl is next due, and what the schedule form accepts (app/lib/schedule-cadence.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeSchedule, nextRunAfter, parseTimeOfDay, scheduleInput, toScheduleSpec, type ScheduleSpec } from '../../../app/lib/schedule-cadence';

const at = (iso: string) => new Date(iso);
const next = (spec: ScheduleSpec, after: string) => nextRunAfter(spec, at(after)).toISOString();
const daily = (minuteOfDay: number): ScheduleSpec => ({ cadence: 'daily', minuteOfDay, weekday: null, monthDay: null });

test('daily: later today if the time is still ahead, else tomorrow; never the instant itself', () => {
  assert.equal(next(daily(3 * 60), '2026-11-29T01:00:00Z'), '2026-11-29T03:00:00.000Z');
  assert.equal(next(daily(3 * 60), '2026-11-29T03:00:00Z'), '2026-11-30T03:00:00.000Z');
  assert.equal(next(daily(3 * 60), '2026-11-29T03:00:00.001Z'), '2026-11-30T03:00:00.000Z');
  // Across a month's and a year's end.
  assert.equal(next(daily(0), '2026-12-31T23:59:00Z'), '2027-01-01T00:00:00.000Z');
});

test('weekly: the next such weekday, this week if still ahead', () => {
  // 2026-11-29 is a Sunday.
  const monday = { cadence: 'weekly', minuteOfDay: 90, weekday: 1, monthDay: null } as const;
  assert.equal(next(monday, '2026-11-29T12:00:00Z'), '2026-11-30T01:30:00.000Z');
  assert.equal(next(monday, '2026-11-30T01:29:00Z'), '2026-11-30T01:30:00.000Z');
  assert.equal(next(monday, '2026-11-30T01:30:00Z'), '2026-12-07T01:30:00.000Z');
  const sunday = { ...monday, weekday: 0 };
  assert.equal(next(sunday, '2026-11-29T00:00:00Z'), '2026-11-29T01:30:00.000Z');
  assert.equal(next(sunday, '2026-11-29T02:00:00Z'), '2026-12-06T01:30:00.000Z');
});

test('monthly: this month if the day is still ahead, else next month, across the year', () => {
  const on15 = { cadence: 'monthly', minuteOfDay: 23 * 60 + 59, weekday: null, monthDay: 15 } as const;
  assert.equal(next(on15, '2026-11-14T00:00:00Z'), '2026-11-15T23:59:00.000Z');
  assert.equal(next(on15, '2026-11-15T23:59:00Z'), '2026-12-15T23:59:00.000Z');
  assert.equal(next(on15, '2026-12-20T00:00:00Z'), '2027-01-15T23:59:00.000Z');
  const on28 = { ...on15, monthDay: 28, minuteOfDay: 0 };
  assert.equal(next(on28, '2027-01-31T00:00:00Z'), '2027-02-28T00:00:00.000Z');
});

test('a whole year of daily runs steps one day at a time', () => {
  let t = at('2026-01-01T00:00:00Z');
  for (let i = 0; i < 365; i++) {
    const n = nextRunAfter(daily(17), t);
    assert.equal(n.getTime() - (i === 0 ? Date.UTC(2026, 0, 1, 0, 17) : t.getTime()), i === 0 ? 0 : 86_400_000);
    t = n;
  }
  assert.equal(t.toISOString(), '2026-12-31T00:17:00.000Z');
});

test('times of day: HH:MM from 00:00 to 23:59 only', () => {
  assert.equal(parseTimeOfDay('00:00'), 0);
  assert.equal(parseTimeOfDay(' 23:59 '), 1439);
  for (const bad of ['24:00', '7:00', '07:60', '07:00:00', '', 'noon']) assert.equal(parseTimeOfDay(bad), null, bad);
});

test('the form input: each missing or wrong field named; only the cadence\'s own field kept', () => {
  const issues = (v: unknown) => {
    const r = scheduleInput.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
  };
  assert.deepEqual(issues({ cadence: 'weekly', time: '03:00' }), ['weekday']);
  assert.deepEqual(issues({ cadence: 'monthly', time: '03:00', monthDay: 31 }), ['monthDay']);
  assert.deepEqual(issues({ cadence: 'hourly', time: '03:00' }), ['cadence']);
  assert.deepEqual(issues({ cadence: 'daily', time: '3am' }), ['time']);
  assert.deepEqual(issues({ cadence: 'daily', time: '03:00', weekday: 2 }), []);
  const input = scheduleInput.parse({ cadence: 'daily', time: '03:05', weekday: 2, monthDay: 4 });
  assert.deepEqual(toScheduleSpec(input), { cadence: 'daily', minuteOfDay: 185, weekday: null, monthDay: null });
  assert.equal(input.enabled, true);
});

test('described as the cockpit says it', () => {
  assert.equal(describeSchedule(daily(185)), 'every day at 03:05 UTC');
  assert.equal(describeSchedule({ cadence: 'weekly', minuteOfDay: 0, weekday: 1, monthDay: null }), 'every Monday at 00:00 UTC');
  assert.equal(describeSchedule({ cadence: 'monthly', minuteOfDay: 60, weekday: null, monthDay: 1 }), 'on day 1 of every month at 01:00 UTC');
});
