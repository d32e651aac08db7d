import { area, line, scaleLinear, stack, tickStep, type ScaleLinear } from 'd3';

/**
 * Chart layouts, pure: d3 computes scales and SVG paths from plain data; React renders them.
 */

export interface Series {
  key: string;
  label: string;
  colour: string;
  points: [number, number][];
}

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export const MARGINS: Margins = { top: 10, right: 16, bottom: 28, left: 48 };

export interface Tick {
  value: number;
  pos: number;
  label: string;
}

export interface LineLayout {
  width: number;
  height: number;
  paths: { key: string; label: string; colour: string; d: string; last: [number, number] | null }[];
  xTicks: Tick[];
  yTicks: Tick[];
  /** The chart's values in words, its text alternative (WCAG 1.1.1): what a reader of the lines would say. */
  description: string;
}

const NO_DATA = 'No data yet.';

/** Each line's latest and highest point, in the axes' formats. */
export function describeLines(series: Series[], xFormat: (v: number) => string, yFormat: (v: number) => string): string {
  const lines = series.filter((s) => s.points.length).map((s) => {
    const last = s.points[s.points.length - 1]!;
    const high = s.points.reduce((a, b) => (b[1] > a[1] ? b : a));
    return `${s.label}: latest ${yFormat(last[1])} at ${xFormat(last[0])}, highest ${yFormat(high[1])} at ${xFormat(high[0])}`;
  });
  return lines.length ? `${lines.join('; ')}.` : NO_DATA;
}

function ticks(scale: ScaleLinear<number, number>, count: number, format: (v: number) => string, values?: number[]): Tick[] {
  return (values ?? scale.ticks(count)).map((value) => ({ value, pos: scale(value), label: format(value) }));
}

/** How many y ticks a chart asks d3 for. */
const Y_TICKS = 4;

/**
 * A y scale over `domain`, made nice, whose ticks lie `minStep` or more apart: the precision its
 * labels show (0.1 for one decimal, 1 for counts). d3 picks its step for the range alone: from 0
 * to 0.22 it ticked every 0.05, which one decimal shows as 0.0 0.1 0.1 0.1 0.2. Where its step
 * is finer, the domain is widened to whole steps of `minStep` and ticked at each of them.
 */
export function yAxis(domain: [number, number], range: [number, number], minStep = 0): { scale: ScaleLinear<number, number>; values?: number[] } {
  const scale = scaleLinear().domain(domain).nice().range(range);
  const [lo, hi] = scale.domain() as [number, number];
  if (!(minStep > 0) || tickStep(lo, hi, Y_TICKS) >= minStep) return { scale };
  const first = Math.floor(lo / minStep + 1e-9);
  const last = Math.max(first + 1, Math.ceil(hi / minStep - 1e-9));
  // Whole multiples, rounded: 3 × 0.1 is 0.30000000000000004.
  const at = (k: number) => Number((k * minStep).toPrecision(12));
  scale.domain([at(first), at(last)]);
  return { scale, values: Array.from({ length: last - first + 1 }, (_, i) => at(first + i)) };
}

/**
 * Lines sharing one x and one y scale (y from 0, or from `yDomain` when given; 0 to 1 with no data
 * or only zeros). `yMinStep`: the least step between y ticks, the precision `yFormat` shows.
 */
export function layoutLines(
  series: Series[],
  opts: { width: number; height: number; yDomain?: [number, number]; xFormat?: (v: number) => string; xTicks?: number[]; yFormat?: (v: number) => string; yMinStep?: number; margins?: Margins },
): LineLayout {
  const m = opts.margins ?? MARGINS;
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const xMin = xs.length ? Math.min(...xs) : 0;
  const xMax = xs.length ? Math.max(...xs) : 1;
  const x = scaleLinear().domain([xMin, xMax === xMin ? xMin + 1 : xMax]).range([m.left, opts.width - m.right]);
  // Nothing above 0 (no data, or an empty crawl's zeros): 0 to 1, not to a billionth.
  const { scale: y, values: yValues } = yAxis(opts.yDomain ?? [0, Math.max(0, ...ys) * 1.1 || 1], [opts.height - m.bottom, m.top], opts.yMinStep);
  const gen = line<[number, number]>()
    .x((p) => x(p[0]))
    .y((p) => y(p[1]));
  return {
    width: opts.width,
    height: opts.height,
    paths: series.map((s) => {
      const last = s.points.length ? s.points[s.points.length - 1]! : null;
      return { key: s.key, label: s.label, colour: s.colour, d: gen(s.points) ?? '', last: last ? [x(last[0]), y(last[1])] : null };
    }),
    xTicks: ticks(x, Math.max(2, Math.floor(opts.width / 90)), opts.xFormat ?? String, opts.xTicks),
    yTicks: ticks(y, Y_TICKS, opts.yFormat ?? ((v) => String(v)), yValues),
    description: describeLines(series, opts.xFormat ?? String, opts.yFormat ?? String),
  };
}

export interface StackLayout extends LineLayout {
  areas: { key: string; colour: string; d: string }[];
}

/** Stacked areas of several counts over x (e.g. responses per status class over time). */
export function layoutStack(
  rows: { x: number; values: Record<string, number> }[],
  keys: string[],
  colours: Record<string, string>,
  opts: { width: number; height: number; xFormat?: (v: number) => string; xTicks?: number[]; margins?: Margins },
): StackLayout {
  const m = opts.margins ?? MARGINS;
  const data = rows.map((r) => ({ x: r.x, ...Object.fromEntries(keys.map((k) => [k, r.values[k] ?? 0])) })) as ({ x: number } & Record<string, number>)[];
  const layers = stack<{ x: number } & Record<string, number>>().keys(keys)(data);
  const top = Math.max(1, ...layers.flatMap((l) => l.map((p) => p[1])));
  const xMin = rows.length ? rows[0]!.x : 0;
  const xMax = rows.length ? rows[rows.length - 1]!.x : 1;
  const x = scaleLinear().domain([xMin, xMax === xMin ? xMin + 1 : xMax]).range([m.left, opts.width - m.right]);
  // Counts: ticks on whole numbers (a stack of one response ticked 0, 0.2, … 1).
  const { scale: y, values: yValues } = yAxis([0, top], [opts.height - m.bottom, m.top], 1);
  const gen = area<[number, number] & { data: { x: number } }>()
    .x((p) => x(p.data.x))
    .y0((p) => y(p[0]))
    .y1((p) => y(p[1]));
  return {
    width: opts.width,
    height: opts.height,
    paths: [],
    areas: layers.map((layer) => ({ key: layer.key, colour: colours[layer.key] ?? '#64748b', d: gen(layer as never) ?? '' })),
    xTicks: ticks(x, Math.max(2, Math.floor(opts.width / 90)), opts.xFormat ?? String, opts.xTicks),
    yTicks: ticks(y, Y_TICKS, (v) => String(v), yValues),
    description: describeStack(rows, keys, opts.xFormat ?? String),
  };
}

/** The counts of the last row, the top of the stack (e.g. the responses of each status class so far). */
export function describeStack(rows: { x: number; values: Record<string, number> }[], keys: string[], xFormat: (v: number) => string): string {
  const last = rows[rows.length - 1];
  if (!last || !keys.length) return NO_DATA;
  return `at ${xFormat(last.x)}: ${keys.map((k) => `${k} ${last.values[k] ?? 0}`).join(', ')}.`;
}

/** Time since `start` (ms), as m:ss, or h:mm:ss from an hour on. */
export function elapsedLabel(start: number): (v: number) => string {
  return (v: number) => {
    const s = Math.max(0, Math.round((v - start) / 1000));
    const mmss = `${String(Math.floor(s / 60) % 60).padStart(s >= 3600 ? 2 : 1, '0')}:${String(s % 60).padStart(2, '0')}`;
    return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss}` : mmss;
  };
}

/** Steps between elapsed-time ticks, in seconds: each reads well as m:ss or h:mm:ss. */
const ELAPSED_STEPS_S = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/**
 * Tick positions (ms) for an axis of times `from`…`to` counted from `start`: whole multiples of
 * one step of ELAPSED_STEPS_S, at most `count` of them, so no two ticks read the same.
 */
export function elapsedTicks(start: number, from: number, to: number, count: number): number[] {
  const a = (from - start) / 1000;
  const b = (to - start) / 1000;
  if (!(b > a)) return [from];
  const step = ELAPSED_STEPS_S.find((st) => (b - a) / st <= count) ?? Math.ceil((b - a) / count / 86400) * 86400;
  const out: number[] = [];
  for (let t = Math.ceil(a / step) * step; t <= b; t += step) out.push(start + t * 1000);
  return out;
}

/**
 * One colour per HTTP status class, each at 3:1 or more on the charts' white card (WCAG 1.4.11;
 * amber-500 for 4xx was 2.2:1). Colours this dark cannot also differ by 3:1 from each other, so
 * ChartFrame parts stacked areas with an edge of the background. 2xx teal and 5xx red-700 rather
 * than green-600 and red-600: further apart for red–green colour blindness, and from 4xx amber.
 */
export const STATUS_CLASS_COLOURS: Record<string, string> = {
  '1xx': '#9333ea', // purple-600, 5.4:1
  '2xx': '#0f766e', // teal-700, 5.5:1
  '3xx': '#2563eb', // blue-600, 5.2:1
  '4xx': '#d97706', // amber-600, 3.2:1
  '5xx': '#b91c1c', // red-700, 6.5:1
  failed: '#111827', // gray-900, 17.7:1
  other: '#64748b', // slate-500, 4.8:1
};
