/**
 * Pure crawler-trap checks on one URL (and its parent): the stateless half of trap detection.
 * The stateful half (counting variants and dates per host) is in trap-detector.ts.
 */

/** Path segments, without empty ones (`/a//b/` → ['a', 'b']). */
function segments(pathname: string): string[] {
  return pathname.split('/').filter((s) => s.length > 0);
}

/** The most segments in a group a repeating path repeats: relative-link loops repeat one to a few. */
const MAX_REPEATED_GROUP = 8;

/**
 * A path that repeats itself, as relative links on a misconfigured server produce
 * (`/a/b/a/b/a/b/`, `/x/img/img/img/`): one segment or one group of segments `times` times
 * (default 3) back to back, as Heritrix's PathologicalPathDecideRule reads a path. A segment
 * recurring among others is no repetition: `/forum/1/thread/1/page/1` is an ordinary forum page.
 */
export function hasRepeatingPath(pathname: string, times = 3): boolean {
  const ids = new Map<string, number>();
  const path = segments(pathname).map((seg) => {
    if (!ids.has(seg)) ids.set(seg, ids.size);
    return ids.get(seg)!;
  });
  const occurrences = new Array<number>(ids.size).fill(0);
  for (const id of path) occurrences[id]++;
  // Each segment of a repeated group occurs `times` times at least, which bounds the group's width
  // (an ordinary path, with no segment occurring that often, is not scanned at all).
  const recurring = path.filter((id) => occurrences[id] >= times).length;
  // A group of `width` segments repeated `times` times is a run of segments each equal to the
  // one `width` before it, (times - 1) × width long. Groups wider than MAX_REPEATED_GROUP are not
  // looked for: the scan stays linear in the path (a 32,768-segment hostile path took 0.6 s without).
  for (let width = 1; width * times <= recurring && width <= MAX_REPEATED_GROUP; width++) {
    let run = 0;
    for (let i = width; i < path.length; i++) {
      run = path[i] === path[i - width] ? run + 1 : 0;
      if (run >= width * (times - 1)) return true;
    }
  }
  return false;
}

function queryParams(search: string): string[] {
  return (search.startsWith('?') ? search.slice(1) : search).split('&').filter((p) => p.length > 0);
}

function paramName(param: string): string {
  const eq = param.indexOf('=');
  return eq < 0 ? param : param.slice(0, eq);
}

/** Whether any parameter name occurs `times` or more times in the query. */
function repeatsName(params: readonly string[], times: number): boolean {
  const counts = new Map<string, number>();
  for (const p of params) {
    const n = (counts.get(paramName(p)) ?? 0) + 1;
    if (n >= times) return true;
    counts.set(paramName(p), n);
  }
  return false;
}

/**
 * An ever-growing query: a page that links to itself with its own query plus more (session
 * parameters or filters appended on every visit). True when `url` has the parent's path, its
 * parameters contain all of the parent's and more, and the growth repeats a parameter name or
 * passes `maxParams` (default 12). `?q=x` → `?q=x&page=2` (ordinary pagination) is not a trap;
 * `?q=x` → `?q=x&q=x` is. A query naming one parameter 4 or more times is a trap on its own.
 */
export function isGrowingQuery(url: URL, parent: URL | null, maxParams = 12): boolean {
  const params = queryParams(url.search);
  if (repeatsName(params, 4)) return true;
  if (!parent || parent.host !== url.host || parent.pathname !== url.pathname) return false;
  const parentParams = queryParams(parent.search);
  if (parentParams.length === 0 || params.length <= parentParams.length) return false;
  const remaining = [...params];
  for (const p of parentParams) {
    const i = remaining.indexOf(p);
    if (i < 0) return false;
    remaining.splice(i, 1);
  }
  return repeatsName(params, 2) || params.length > maxParams;
}

/** Where a calendar-like URL puts its date, with the date taken out. */
export interface CalendarKey {
  /** The URL with its date parts replaced by placeholders: one calendar. */
  template: string;
  /** The date it shows, as found (`2024-01-05`, `2024-01`, `2024`). */
  date: string;
  /**
   * Year of that date, for the window check. Absent when the only date is 8 bare digits
   * (`/item/25010203`): an ID as often as a date, so no far-future year on its own.
   */
  year?: number;
  /**
   * The date is a bare number in the path, a lone year (`/archive/2026`, but also `/p/2500`) or 8
   * digits (`/day/20240105`, but also `/item/25010203`): its path with that number as `{y}`, to
   * compare with `numberedPathTemplate`. Absent for other dates.
   */
  bareNumberPath?: string;
}

const YEAR = /^(1[89]\d\d|2\d\d\d)$/;
const MONTH = /^(0?[1-9]|1[0-2])$/;
const DAY = /^(0?[1-9]|[12]\d|3[01])$/;
const DATE_PARAM = /^(date|day|month|year|week|cal|calendar|y|ym|ymd)$/i;
const DATE_VALUE = /^((1[89]|2\d)\d\d)(?:[-/.]?(0[1-9]|1[0-2]))?(?:[-/.]?(0[1-9]|[12]\d|3[01]))?$/;
const PLAIN_NUMBER = /^\d+$/;

/**
 * Finds a date in a URL's path (`/2024/01/05/`, `/2024/01`, `/2024-01-05`, `/20240105`) or in a
 * date-named query parameter (`?date=2024-01-05`, `?month=202401`), and returns the calendar's
 * template and the date; null when the URL shows no date. A blog post `/2024/01/05/my-post` gets a
 * template of its own (the slug stays in it), so only real calendars accumulate many dates per
 * template.
 */
export function calendarKey(url: URL): CalendarKey | null {
  const segs = url.pathname.split('/');
  const dateParts: string[] = [];
  let year = 0;
  let bareNumberPath: string | undefined;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    if (YEAR.test(seg)) {
      let j = i + 1;
      const parts = [seg];
      if (j < segs.length && MONTH.test(segs[j])) {
        parts.push(segs[j++].padStart(2, '0'));
        if (j < segs.length && DAY.test(segs[j])) parts.push(segs[j++].padStart(2, '0'));
      }
      year = Number(seg);
      dateParts.push(parts.join('-'));
      segs.splice(i, j - i, ['{y}', '{m}', '{d}'].slice(0, parts.length).join('/'));
      if (parts.length === 1) bareNumberPath = segs.join('/');
      break;
    }
    const m = DATE_VALUE.exec(seg);
    if (m && m[3]) {
      dateParts.push(seg);
      if (PLAIN_NUMBER.test(seg)) {
        segs[i] = '{y}';
        bareNumberPath = segs.join('/');
      } else year = Number(m[1]);
      segs[i] = '{date}';
      break;
    }
  }
  const params = queryParams(url.search).map((p) => {
    const name = paramName(p);
    const value = decodeURIComponentSafe(p.slice(name.length + 1));
    const m = DATE_PARAM.test(name) ? DATE_VALUE.exec(value) : null;
    if (!m) return p;
    if (!year) year = Number(m[1]);
    dateParts.push(`${name}=${value}`);
    return `${name}={date}`;
  });
  if (dateParts.length === 0) return null;
  const query = params.length ? `?${params.sort().join('&')}` : '';
  const key: CalendarKey = { template: `${url.host}${segs.join('/')}${query}`, date: dateParts.join('|') };
  if (year) key.year = year;
  if (bareNumberPath !== undefined && dateParts.length === 1) key.bareNumberPath = bareNumberPath;
  return key;
}

/**
 * The path with its first number that cannot be a date as `{y}` (`/p/17` → `/p/{y}`), or null.
 * Where a path holds ordinary numbers (IDs, page numbers), a bare number there that reads as a
 * date is no date either: `/p/2500` is the item after `/p/2499`, and `/item/25010203` a neighbour
 * of `/item/12345678`, not dates in a far-future calendar.
 */
export function numberedPathTemplate(pathname: string): string | null {
  const segs = pathname.split('/');
  for (let i = 0; i < segs.length; i++) {
    if (PLAIN_NUMBER.test(segs[i]) && !readsAsDate(segs[i])) {
      segs[i] = '{y}';
      return segs.join('/');
    }
  }
  return null;
}

/** A bare number `calendarKey` reads as a date in a path: a year (`2024`) or 8 digits (`20240105`). */
function readsAsDate(seg: string): boolean {
  return YEAR.test(seg) || (seg.length === 8 && DATE_VALUE.test(seg));
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
