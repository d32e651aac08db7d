/**
 * Wall-clock time in an IANA time zone, from Intl alone (pure: no clock, no I/O). The schedule
 * arithmetic (schedule-cadence.ts) names its times this way; daylight-saving changes are the zone
 * database's, as the runtime's ICU knows them.
 */

/** A civil date and time of day, as a clock on the wall of that zone shows it. */
export interface WallTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * The zone's canonical name ("europe/paris" → "Europe/Paris", "Etc/UTC" → "UTC"), or null when the
 * runtime knows no such IANA zone. Offsets ("+01:00") are not zones: they know no daylight saving.
 */
export function canonicalTimeZone(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed || /^[-+\d]/.test(trimmed)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** What a clock in `timeZone` shows at `instant` (ms since the epoch). */
export function wallTimeAt(instant: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(timeZone).formatToParts(new Date(instant))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute };
}

/** The wall time's fields read as if they were UTC, in ms: the arithmetic below compares these. */
function wallMs(w: WallTime): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
}

/** The zone's offset from UTC at `instant`, in ms (whole minutes: seconds of old local mean times dropped). */
function offsetAt(instant: number, timeZone: string): number {
  const whole = Math.floor(instant / 60_000) * 60_000;
  return wallMs(wallTimeAt(whole, timeZone)) - whole;
}

const HOUR = 3_600_000;

/**
 * The instant at which a clock in `timeZone` shows `wall`. Where the clocks go back and it shows
 * that time twice, the first; where they go forward over it (it never shows it), the first instant
 * after it, the moment of the change (02:30 on a day Paris goes from 02:00 to 03:00 → 03:00 CEST).
 */
export function instantOfWallTime(wall: WallTime, timeZone: string): number {
  const w = wallMs(wall);
  // The offsets in force around it: a day apart holds any one change (none is closer to another).
  const offsets = new Set([offsetAt(w - 24 * HOUR, timeZone), offsetAt(w, timeZone), offsetAt(w + 24 * HOUR, timeZone)]);
  const fits = [...offsets].map((o) => w - o).filter((t) => offsetAt(t, timeZone) === w - t);
  if (fits.length) return Math.min(...fits);
  // In the gap: the shown time jumps past `wall` at the change; find that minute.
  let lo = w - Math.max(...offsets);
  let hi = w - Math.min(...offsets);
  const past = (t: number) => t + offsetAt(t, timeZone) > w;
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
    if (past(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** "2026-03-29 03:00": the wall time at `instant` in `timeZone`, as the cockpit writes it. */
export function formatWallTime(instant: number, timeZone: string): string {
  const w = wallTimeAt(instant, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}`;
}

/**
 * "2026-11-30 03:00 Europe/Paris": the wall time at `iso` in `timeZone`, labelled with the zone; in
 * UTC when this runtime knows no such zone (a browser's zone data older than the server's): Intl
 * would throw, and take the page showing it down.
 */
export function formatInZone(iso: string, timeZone: string): string {
  try {
    return `${formatWallTime(Date.parse(iso), timeZone)} ${timeZone}`;
  } catch {
    return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  }
}
