import type { ExclusionReason } from '../capture';
import { calendarKey, hasRepeatingPath, isGrowingQuery, numberedPathTemplate } from './trap-checks';

/** Limits of the trap detector; all optional. */
export interface TrapOptions {
  /** Distinct query strings of one path on one host before further ones are traps (ICD default 200). */
  maxQueryVariantsPerPath?: number;
  /** Times a path segment, or a group of them, repeated back to back makes a repeating path. Default 3. */
  maxSegmentRepeats?: number;
  /** Distinct dates of one calendar template on one host before further ones are traps. Default 400. */
  maxDatesPerTemplate?: number;
  /** Dates later than this year are calendar traps (8 bare digits excepted). Default: the current year + 2. */
  maxYear?: number;
  /** Parameters a growing query may reach before it counts as a trap. Default 12. */
  maxQueryParams?: number;
}

/** Per-path query variants: hashes of the queries seen, or only a count once the path is a trap. */
interface VariantState {
  n: number;
  hashes: Set<number> | null;
}

interface HostState {
  variants: Map<string, VariantState>;
  calendars: Map<string, Set<string> | number>;
  /** Path templates seen holding ordinary numbers (numberedPathTemplate): a bare "date" there is a number. */
  numbered: Set<string>;
}

/** Numbered path templates remembered per host (an article's ID in a path with a slug makes one each). */
const MAX_NUMBERED_TEMPLATES = 10_000;

/** JSON form of the detector's memory, for resuming a crawl. */
export interface TrapDetectorState {
  version: 1;
  hosts: Record<string, { variants: Record<string, number[] | number>; calendars: Record<string, string[] | number>; numbered?: string[] }>;
}

/** FNV-1a, 32 bits: query strings are counted, not kept, so memory stays at 4 bytes a variant. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Crawler-trap detection: pure checks (repeating paths, growing queries, far-future dates) plus
 * per-host counts of query variants per path and dates per calendar template. The state is
 * plain data, serialisable with `toJSON()` and restored with `TrapDetector.fromJSON()`.
 */
export class TrapDetector {
  private readonly hosts = new Map<string, HostState>();
  private readonly opts: Required<TrapOptions>;

  constructor(options: TrapOptions = {}) {
    this.opts = {
      maxQueryVariantsPerPath: options.maxQueryVariantsPerPath ?? 200,
      maxSegmentRepeats: options.maxSegmentRepeats ?? 3,
      maxDatesPerTemplate: options.maxDatesPerTemplate ?? 400,
      maxYear: options.maxYear ?? new Date().getUTCFullYear() + 2,
      maxQueryParams: options.maxQueryParams ?? 12,
    };
  }

  /**
   * The trap `url` (reached from `viaUrl`) falls into, or null. A URL that passes is counted
   * towards its path's query variants and its calendar's dates, so call this once per new link.
   */
  check(url: string, viaUrl?: string): ExclusionReason | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null; // scope rules reject invalid URLs; nothing to say about traps
    }
    if (hasRepeatingPath(parsed.pathname, this.opts.maxSegmentRepeats)) return 'trap-repeating-path';
    let parent: URL | null = null;
    if (viaUrl && parsed.search) {
      try {
        parent = new URL(viaUrl);
      } catch {
        parent = null;
      }
    }
    if (parsed.search && isGrowingQuery(parsed, parent, this.opts.maxQueryParams)) return 'trap-growing-query';
    const host = this.host(parsed.host);
    const numbered = numberedPathTemplate(parsed.pathname);
    if (numbered !== null && host.numbered.size < MAX_NUMBERED_TEMPLATES) host.numbered.add(numbered);
    const calendar = calendarKey(parsed);
    // A bare number reading as a date, where the site also has other numbers, is an ID, not a date.
    if (calendar && !(calendar.bareNumberPath !== undefined && host.numbered.has(calendar.bareNumberPath))) {
      if (calendar.year !== undefined && calendar.year > this.opts.maxYear) return 'trap-calendar';
      if (!this.countDate(host, calendar.template, calendar.date)) return 'trap-calendar';
    }
    if (parsed.search.length > 1 && !this.countVariant(host, parsed.pathname, parsed.search)) return 'trap-query-variants';
    return null;
  }

  private host(name: string): HostState {
    let state = this.hosts.get(name);
    if (!state) {
      state = { variants: new Map(), calendars: new Map(), numbered: new Set() };
      this.hosts.set(name, state);
    }
    return state;
  }

  /** Counts a date of a calendar; false once the calendar has shown too many. */
  private countDate(host: HostState, template: string, date: string): boolean {
    const seen = host.calendars.get(template);
    if (typeof seen === 'number') return false;
    const dates = seen ?? new Set<string>();
    if (dates.has(date)) return true;
    if (dates.size >= this.opts.maxDatesPerTemplate) {
      host.calendars.set(template, dates.size); // a trap from now on: forget the dates
      return false;
    }
    dates.add(date);
    host.calendars.set(template, dates);
    return true;
  }

  /** Counts a query variant of a path; false once the path has had too many. */
  private countVariant(host: HostState, path: string, search: string): boolean {
    let state = host.variants.get(path);
    if (!state) {
      state = { n: 0, hashes: new Set() };
      host.variants.set(path, state);
    }
    if (!state.hashes) return false;
    const h = hash32(search);
    if (state.hashes.has(h)) return true;
    if (state.n >= this.opts.maxQueryVariantsPerPath) {
      state.hashes = null;
      return false;
    }
    state.hashes.add(h);
    state.n++;
    return true;
  }

  /** The detector's memory as JSON-safe data. */
  toJSON(): TrapDetectorState {
    const hosts: TrapDetectorState['hosts'] = {};
    for (const [name, h] of this.hosts) {
      const variants: Record<string, number[] | number> = {};
      for (const [path, v] of h.variants) variants[path] = v.hashes ? [...v.hashes] : v.n;
      const calendars: Record<string, string[] | number> = {};
      for (const [t, d] of h.calendars) calendars[t] = typeof d === 'number' ? d : [...d];
      hosts[name] = { variants, calendars, numbered: [...h.numbered] };
    }
    return { version: 1, hosts };
  }

  /** A detector restored from `toJSON()` output (options are not part of the state). */
  static fromJSON(state: TrapDetectorState, options: TrapOptions = {}): TrapDetector {
    const detector = new TrapDetector(options);
    for (const [name, h] of Object.entries(state.hosts ?? {})) {
      const host = detector.host(name);
      for (const [path, v] of Object.entries(h.variants ?? {})) {
        host.variants.set(path, Array.isArray(v) ? { n: v.length, hashes: new Set(v) } : { n: v, hashes: null });
      }
      for (const [t, d] of Object.entries(h.calendars ?? {})) host.calendars.set(t, Array.isArray(d) ? new Set(d) : d);
      for (const t of h.numbered ?? []) host.numbered.add(t);
    }
    return detector;
  }
}
