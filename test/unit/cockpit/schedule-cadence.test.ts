/**
 * When a scheduled crawl is next due, in UTC and in zones with daylight saving, and what the
 * schedule form accepts (app/lib/schedule-cadence.ts, app/lib/zoned-time.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeSchedule, nextRunAfter, parseTimeOfDay, scheduleInput, toScheduleSpec, type ScheduleSpec } from '../../../app/lib/schedule-cadence';
import { canonicalTimeZone, formatInZone, formatWallTime, instantOfWallTime } from '../../../app/lib/zoned-time';

const at = (iso: string) => new Date(iso);
const next = (spec: ScheduleSpec, after: string) => nextRunAfter(spec, at(after)).toISOString();
const daily = (minuteOfDay: number, timeZone = 'UTC'): ScheduleSpec => ({ cadence: 'daily', minuteOfDay, weekday: null, monthDay: null, timeZone });
const hm = (h: number, m: number) => h * 60 + m;
/** The runs one after another from `after`, as the scheduler steps (each from the last). */
const runs = (spec: ScheduleSpec, after: string, n: number) => {
  const out: string[] = [];
  for (let t = at(after); out.length < n; ) out.push((t = nextRunAfter(spec, t)).toISOString());
  return out;
};

test('daily: later today if the time is still ahead, else tomorrow; never the instant itself', () => {
  assert.equal(next(daily(3 * 60), '2026-11-29T01:00:00Z'), '2026-11-29T03:00:00.000Z');
  assert.equal(next(daily(3 * 60), '2026-11-29T03:00:00Z'), '2026-11-30T03:00:00.000Z');
  assert.equal(next(daily(3 * 60), '2026-11-29T03:00:00.001Z'), '2026-11-30T03:00:00.000Z');
  // Across a month's and a year's end.
  assert.equal(next(daily(0), '2026-12-31T23:59:00Z'), '2027-01-01T00:00:00.000Z');
});

test('weekly: the next such weekday, this week if still ahead', () => {
  // 2026-11-29 is a Sunday.
  const monday = { cadence: 'weekly', minuteOfDay: 90, weekday: 1, monthDay: null, timeZone: 'UTC' } as const;
  assert.equal(next(monday, '2026-11-29T12:00:00Z'), '2026-11-30T01:30:00.000Z');
  assert.equal(next(monday, '2026-11-30T01:29:00Z'), '2026-11-30T01:30:00.000Z');
  assert.equal(next(monday, '2026-11-30T01:30:00Z'), '2026-12-07T01:30:00.000Z');
  const sunday = { ...monday, weekday: 0 };
  assert.equal(next(sunday, '2026-11-29T00:00:00Z'), '2026-11-29T01:30:00.000Z');
  assert.equal(next(sunday, '2026-11-29T02:00:00Z'), '2026-12-06T01:30:00.000Z');
});

test('monthly: this month if the day is still ahead, else next month, across the year', () => {
  const on15 = { cadence: 'monthly', minuteOfDay: 23 * 60 + 59, weekday: null, monthDay: 15, timeZone: 'UTC' } as const;
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
  assert.deepEqual(toScheduleSpec(input), { cadence: 'daily', minuteOfDay: 185, weekday: null, monthDay: null, timeZone: 'UTC' }, 'UTC unless said');
  assert.equal(input.enabled, true);
});

test('the time zone: any IANA zone the runtime knows, stored by its canonical name; anything else named at its field', () => {
  const parsed = (timeZone: unknown) => scheduleInput.safeParse({ cadence: 'daily', time: '03:00', timeZone });
  assert.equal(toScheduleSpec(parsed('europe/paris').data!).timeZone, 'Europe/Paris');
  assert.equal(toScheduleSpec(parsed('Etc/UTC').data!).timeZone, 'UTC');
  assert.equal(toScheduleSpec(parsed('Australia/Sydney').data!).timeZone, 'Australia/Sydney');
  for (const bad of ['Mars/Olympus_Mons', '', '+01:00', 'UTC+1', 5, null]) {
    const r = parsed(bad);
    assert.equal(r.success, false, String(bad));
    assert.deepEqual(r.error!.issues.map((i) => i.path.join('.')), ['timeZone'], String(bad));
  }
  assert.equal(parsed('Mars/Olympus_Mons').error!.issues[0].message, 'Unknown time zone “Mars/Olympus_Mons”: an IANA time zone such as Europe/Paris, America/New_York or UTC');
  assert.equal(canonicalTimeZone(' America/New_York '), 'America/New_York');
  assert.equal(canonicalTimeZone('Nowhere'), null);
});

test('Europe/Paris: 03:00 every day stays 03:00 on the clocks across both changes', () => {
  assert.deepEqual(runs(daily(hm(3, 0), 'Europe/Paris'), '2026-03-27T12:00:00Z', 3), [
    '2026-03-28T02:00:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T01:00:00.000Z',
  ]);
  assert.deepEqual(runs(daily(hm(3, 0), 'Europe/Paris'), '2026-10-24T12:00:00Z', 2), ['2026-10-25T02:00:00.000Z', '2026-10-26T02:00:00.000Z']);
});

test('Europe/Paris: 02:30 does not exist on 29 March 2026 (02:00 → 03:00): run at the change, 03:00 CEST', () => {
  assert.deepEqual(runs(daily(hm(2, 30), 'Europe/Paris'), '2026-03-27T12:00:00Z', 3), [
    '2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z',
  ]);
  // Weekly on Sundays: the same day comes up once in the week.
  const sunday = { cadence: 'weekly', minuteOfDay: hm(2, 30), weekday: 0, monthDay: null, timeZone: 'Europe/Paris' } as const;
  assert.deepEqual(runs(sunday, '2026-03-22T01:30:00Z', 2), ['2026-03-29T01:00:00.000Z', '2026-04-05T00:30:00.000Z']);
});

test('Europe/Paris: 02:30 comes twice on 25 October 2026 (03:00 → 02:00): run once, at the first', () => {
  assert.deepEqual(runs(daily(hm(2, 30), 'Europe/Paris'), '2026-10-24T12:00:00Z', 2), ['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  // Between the two: the second is not a run of its own.
  assert.equal(next(daily(hm(2, 30), 'Europe/Paris'), '2026-10-25T01:00:00Z'), '2026-10-26T01:30:00.000Z');
});

test('America/New_York: 02:30 skipped on 8 March 2026 runs at 03:00 EDT; 01:30 twice on 1 November runs once', () => {
  assert.deepEqual(runs(daily(hm(2, 30), 'America/New_York'), '2026-03-06T12:00:00Z', 3), [
    '2026-03-07T07:30:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z',
  ]);
  assert.deepEqual(runs(daily(hm(1, 30), 'America/New_York'), '2026-10-31T12:00:00Z', 2), ['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
  assert.equal(next(daily(hm(1, 30), 'America/New_York'), '2026-11-01T06:00:00Z'), '2026-11-02T06:30:00.000Z');
  // Monthly at 23:30 on the 28th: the next UTC month's 1st (EST), then the 29th of March's 03:30 UTC (EDT).
  const on28 = { cadence: 'monthly', minuteOfDay: hm(23, 30), weekday: null, monthDay: 28, timeZone: 'America/New_York' } as const;
  assert.deepEqual(runs(on28, '2026-02-10T00:00:00Z', 2), ['2026-03-01T04:30:00.000Z', '2026-03-29T03:30:00.000Z']);
});

test('Australia/Sydney: 02:30 twice on 5 April 2026 runs once; 02:15 skipped on 4 October runs at 03:00 AEDT', () => {
  assert.deepEqual(runs(daily(hm(2, 30), 'Australia/Sydney'), '2026-04-04T00:00:00Z', 2), ['2026-04-04T15:30:00.000Z', '2026-04-05T16:30:00.000Z']);
  assert.deepEqual(runs(daily(hm(2, 15), 'Australia/Sydney'), '2026-10-03T00:00:00Z', 2), ['2026-10-03T16:00:00.000Z', '2026-10-04T15:15:00.000Z']);
  // The weekday and the month are Sydney's, not UTC's: Monday 08:00 AEDT is Sunday in UTC.
  const monday = { cadence: 'weekly', minuteOfDay: hm(8, 0), weekday: 1, monthDay: null, timeZone: 'Australia/Sydney' } as const;
  assert.equal(next(monday, '2026-11-29T12:00:00Z'), '2026-11-29T21:00:00.000Z');
  const on1 = { cadence: 'monthly', minuteOfDay: hm(9, 0), weekday: null, monthDay: 1, timeZone: 'Australia/Sydney' } as const;
  assert.equal(next(on1, '2026-05-31T22:30:00Z'), '2026-05-31T23:00:00.000Z', 'already 1 June in Sydney, 09:00 still ahead');
  assert.equal(next(on1, '2026-05-31T23:30:00Z'), '2026-06-30T23:00:00.000Z', '09:00 on 1 June is behind: 1 July');
  const newYear = { ...on1, minuteOfDay: hm(0, 30) };
  assert.equal(next(newYear, '2026-12-31T13:00:00Z'), '2026-12-31T13:30:00.000Z', '1 January 2027 00:30 AEDT is still 2026 in UTC');
});

test('a whole year of daily runs in Paris, New York and Sydney: one a local day, always at the time on the clocks', () => {
  for (const [timeZone, minute] of [['America/New_York', hm(2, 30)], ['Australia/Sydney', hm(2, 30)], ['Europe/Paris', hm(3, 0)]] as const) {
    const all = runs(daily(minute, timeZone), '2026-01-01T00:00:00Z', 365);
    const days = all.map((iso) => formatWallTime(Date.parse(iso), timeZone));
    assert.equal(new Set(days.map((d) => d.slice(0, 10))).size, 365, `${timeZone}: one run a day`);
    const off = days.filter((d) => d.slice(11) !== (minute === hm(3, 0) ? '03:00' : '02:30'));
    // Only the spring-forward day runs at another time: the change's instant, 03:00.
    assert.deepEqual(off.map((d) => d.slice(11)), timeZone === 'Europe/Paris' ? [] : ['03:00'], `${timeZone}: ${off.join(', ')}`);
  }
});

test('wall times to instants: a half-hour change (Lord Howe) and a zone without daylight saving', () => {
  // Lord Howe goes from +10:30 to +11 at 02:00 on 4 October 2026: 02:15 never shows; 02:00 is the change.
  assert.equal(new Date(instantOfWallTime({ year: 2026, month: 10, day: 4, hour: 2, minute: 15 }, 'Australia/Lord_Howe')).toISOString(), '2026-10-03T15:30:00.000Z');
  assert.equal(new Date(instantOfWallTime({ year: 2026, month: 7, day: 1, hour: 12, minute: 0 }, 'Asia/Kolkata')).toISOString(), '2026-07-01T06:30:00.000Z');
});

test('described as the cockpit says it', () => {
  assert.equal(describeSchedule(daily(185)), 'every day at 03:05 UTC');
  assert.equal(describeSchedule({ cadence: 'weekly', minuteOfDay: 180, weekday: 1, monthDay: null, timeZone: 'Europe/Paris' }), 'every Monday at 03:00 Europe/Paris');
  assert.equal(describeSchedule({ cadence: 'monthly', minuteOfDay: 60, weekday: null, monthDay: 1, timeZone: 'UTC' }), 'on day 1 of every month at 01:00 UTC');
});

test('formatInZone: an instant on the clocks of the schedule\'s zone, the zone named; in UTC, named, for a zone this runtime does not know', () => {
  assert.equal(formatInZone('2026-12-15T03:30:00.000Z', 'Europe/Paris'), '2026-12-15 04:30 Europe/Paris');
  assert.equal(formatInZone('2026-07-15T02:30:00.000Z', 'Europe/Paris'), '2026-07-15 04:30 Europe/Paris');
  assert.equal(formatInZone('2026-12-15T03:30:00.000Z', 'America/New_York'), '2026-12-14 22:30 America/New_York');
  assert.equal(formatInZone('2099-01-01T03:00:00.000Z', 'Mars/Olympus_Mons'), '2099-01-01 03:00 UTC');
});
