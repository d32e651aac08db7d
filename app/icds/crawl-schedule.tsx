'use client';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../components/error-message';
import { CheckboxField, Field, controlProps } from '../components/field';
import { ApiError } from '../lib/client/api';
import { formatDate, useCrawlSchedule, useSaveCrawlSchedule } from '../lib/client/queries';
import { useCan } from '../lib/client/session';
import { CADENCES, LAST_MONTH_DAY, WEEKDAYS, type Cadence } from '../lib/schedule-cadence';
import type { ScheduleView } from '../lib/server/crawl-scheduler';
import { formatInZone } from '../lib/zoned-time';

/** The zones the browser knows, for the zone field's suggestions (UTC is not among Intl's names). */
function knownTimeZones(): string[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
}

/** A new schedule is in the browser's zone: most archivists set it where they work. */
function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The ICD's schedule (Archive-It's crawl frequency, Browsertrix's workflow schedule): a new crawl of
 * the saved definition every day, week or month at a time of day in a time zone (the institution's,
 * daylight saving followed). A due time while the last
 * crawl has not ended is skipped, and said so here.
 */
export function CrawlSchedule({ icdId }: { icdId: number }) {
  const schedule = useCrawlSchedule(icdId);
  // Here, not in the form: the form is remounted with what was saved, and the save's outcome stays shown.
  const save = useSaveCrawlSchedule(icdId);
  return (
    <section aria-labelledby="schedule-heading" className="card space-y-3" data-testid="crawl-schedule">
      <h2 id="schedule-heading" className="text-lg font-semibold">Schedule</h2>
      {schedule.isPending ? (
        <p className="text-sm text-slate-600">Loading the schedule…</p>
      ) : schedule.isError ? (
        <ErrorMessage error={schedule.error} />
      ) : (
        <ScheduleForm key={schedule.data ? `${schedule.data.cadence}-${schedule.data.time}-${schedule.data.timeZone}-${schedule.data.enabled}` : 'none'} current={schedule.data} save={save} />
      )}
      {save.isSuccess && <p role="status" className="text-sm text-emerald-800">{save.data ? 'Schedule saved.' : 'Schedule removed: the definition is crawled only when someone starts it.'}</p>}
    </section>
  );
}

function ScheduleForm({ current, save }: { current: ScheduleView | null; save: ReturnType<typeof useSaveCrawlSchedule> }) {
  const mayRun = useCan('run');
  const [cadence, setCadence] = useState<Cadence>(current?.cadence ?? 'weekly');
  const [time, setTime] = useState(current?.time ?? '03:00');
  // Only rendered once the schedule has loaded, in the browser: the browser's zone, not the server's.
  const [timeZone, setTimeZone] = useState(() => current?.timeZone ?? browserTimeZone());
  const [zones] = useState(knownTimeZones);
  const [weekday, setWeekday] = useState(String(current?.weekday ?? 1));
  const [monthDay, setMonthDay] = useState(String(current?.monthDay ?? 1));
  const [enabled, setEnabled] = useState(current?.enabled ?? true);
  const issues = save.error instanceof ApiError && save.error.status === 400 ? save.error.issues : [];
  const errorsAt = (field: string) => issues.filter((i) => i.path[0] === field).map((i) => i.message);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      cadence, time, timeZone: timeZone.trim(), enabled,
      weekday: cadence === 'weekly' ? Number(weekday) : null,
      monthDay: cadence === 'monthly' ? (/^\d+$/.test(monthDay.trim()) ? Number(monthDay) : -1) : null,
    });
  };

  return (
    <div className="space-y-3">
      <ScheduleStatus current={current} />
      {mayRun ? (
        <form onSubmit={submit} noValidate aria-label="Crawl schedule" className="flex flex-wrap items-end gap-4">
          <Field id="schedule-cadence" label="Crawl again" errors={errorsAt('cadence')}>
            <select className="input" {...controlProps('schedule-cadence', errorsAt('cadence'))} value={cadence} onChange={(e) => setCadence(e.target.value as Cadence)}>
              {CADENCES.map((c) => <option key={c} value={c}>{c === 'daily' ? 'every day' : c === 'weekly' ? 'every week' : 'every month'}</option>)}
            </select>
          </Field>
          {cadence === 'weekly' && (
            <Field id="schedule-weekday" label="On" errors={errorsAt('weekday')}>
              <select className="input" {...controlProps('schedule-weekday', errorsAt('weekday'))} value={weekday} onChange={(e) => setWeekday(e.target.value)}>
                {WEEKDAYS.map((d, i) => <option key={d} value={i}>{d}</option>)}
              </select>
            </Field>
          )}
          {cadence === 'monthly' && (
            <Field id="schedule-month-day" label={`On day (1–${LAST_MONTH_DAY})`} errors={errorsAt('monthDay')}>
              <input className="input w-24" type="text" inputMode="numeric" {...controlProps('schedule-month-day', errorsAt('monthDay'))} value={monthDay} onChange={(e) => setMonthDay(e.target.value)} />
            </Field>
          )}
          <Field id="schedule-time" label="At" errors={errorsAt('time')}>
            <input className="input" type="time" required {...controlProps('schedule-time', errorsAt('time'))} value={time} onChange={(e) => setTime(e.target.value)} />
          </Field>
          <Field id="schedule-time-zone" label="Time zone" errors={errorsAt('timeZone')}>
            <input
              className="input w-56" type="text" list="schedule-time-zones" autoComplete="off" spellCheck={false} required
              {...controlProps('schedule-time-zone', errorsAt('timeZone'))} value={timeZone} onChange={(e) => setTimeZone(e.target.value)}
            />
            <datalist id="schedule-time-zones">
              {zones.map((z) => <option key={z} value={z} />)}
            </datalist>
          </Field>
          <CheckboxField id="schedule-enabled" label="On" checked={enabled} onChange={setEnabled} errors={errorsAt('enabled')} />
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>{save.isPending ? 'Saving…' : current ? 'Save schedule' : 'Set schedule'}</button>
          {current && (
            <button type="button" className="btn" disabled={save.isPending} onClick={() => save.mutate(null)}>Remove schedule</button>
          )}
        </form>
      ) : (
        <p className="text-sm text-slate-600">Your role may view but not change when this definition is crawled.</p>
      )}
      <ErrorMessage error={issues.length ? null : save.error} />
    </div>
  );
}

function ScheduleStatus({ current }: { current: ScheduleView | null }) {
  if (!current) return <p className="text-sm text-slate-700">No schedule: this definition is crawled only when someone starts it.</p>;
  return (
    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]" data-testid="schedule-status">
      <dt className="font-medium">Crawled</dt>
      <dd>{current.enabled ? current.description : `${current.description} (off)`}</dd>
      <dt className="font-medium">Next crawl</dt>
      <dd>{current.nextRunAt ? `${formatInZone(current.nextRunAt, current.timeZone)} (${formatDate(current.nextRunAt)} here)` : 'none while the schedule is off'}</dd>
      {current.lastRunAt && (
        <>
          <dt className="font-medium">Last due time</dt>
          <dd>
            {formatDate(current.lastRunAt)}:{' '}
            {current.lastCrawlId !== null ? <Link className="link" href={`/crawls/${current.lastCrawlId}`}>crawl #{current.lastCrawlId} started</Link> : current.lastSkip}
          </dd>
        </>
      )}
    </dl>
  );
}
