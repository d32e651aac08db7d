/**
 * The crawl's CDXJ index: `<SURT> <14-digit timestamp> {json}` lines, appended unsorted to
 * `index.cdxj.open` while the crawl runs and merge-sorted into `index.cdxj` when it closes, in
 * the byte order of the lines (compareBytewise).
 * The JSON follows pywb/warcio: offset, length and status as strings, the digest without its
 * algorithm prefix, `warc/revisit` as the mime of revisits.
 */
import { createReadStream } from 'node:fs';
import { open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getSurt } from 'warcio';
import { cdxTimestamp } from './warc-fields';

export const INDEX_NAME = 'index.cdxj';
export const OPEN_INDEX_NAME = 'index.cdxj.open';

/** What one index line says about a response or revisit record. */
export interface CdxjEntry {
  url: string;
  date: string;
  mime: string;
  status: number;
  digest: string;
  length: number;
  offset: number;
  filename: string;
}

/**
 * The CDXJ key of a URL: warcio's SURT (the same pywb uses to look captures up). The index's lines
 * and the check of an index (verify-warc.ts) both take it from here, so they cannot disagree.
 */
export function cdxjKey(url: string): string {
  return getSurt(url);
}

/** A UTF-16 code unit's rank in code point order: surrogates (code points past U+FFFF) after U+E000–U+FFFF. */
const codePointRank = (unit: number) => (unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800);

/**
 * Compares two lines as their UTF-8 bytes compare (the order of code points), the order pywb's
 * binary search over an index assumes. JavaScript's `<` and a bare sort() compare UTF-16 code
 * units, which put U+E000–U+FFFF after every character past U+FFFF, where UTF-8 puts them before.
 */
export function compareBytewise(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  return codePointRank(a.charCodeAt(i)) - codePointRank(b.charCodeAt(i));
}

/** One CDXJ line (with its newline). */
export function cdxjLine(e: CdxjEntry): string {
  const json = {
    url: e.url,
    mime: e.mime,
    status: String(e.status),
    digest: e.digest.includes(':') ? e.digest.slice(e.digest.indexOf(':') + 1) : e.digest,
    length: String(e.length),
    offset: String(e.offset),
    filename: e.filename,
  };
  return `${cdxjKey(e.url)} ${cdxTimestamp(e.date)} ${JSON.stringify(json)}\n`;
}

/** The parsed JSON part of a CDXJ line. */
export interface CdxjJson {
  url: string;
  mime: string;
  status: string;
  digest: string;
  length: string;
  offset: string;
  filename: string;
}

/** Splits a CDXJ line into key, timestamp and JSON; null when it is not one. */
export function parseCdxjLine(line: string): { key: string; timestamp: string; json: CdxjJson } | null {
  const a = line.indexOf(' ');
  const b = line.indexOf(' ', a + 1);
  if (a < 0 || b < 0 || !/^\d{14}$/.test(line.slice(a + 1, b))) return null;
  try {
    return { key: line.slice(0, a), timestamp: line.slice(a + 1, b), json: JSON.parse(line.slice(b + 1)) };
  } catch {
    return null;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** Writes sorted runs of at most `runBytes` characters each; returns their paths. */
async function writeSortedRuns(source: string, dir: string, runBytes: number): Promise<string[]> {
  const runs: string[] = [];
  let lines: string[] = [];
  let size = 0;
  const flush = async () => {
    if (!lines.length) return;
    lines.sort(compareBytewise);
    const path = join(dir, `${INDEX_NAME}.run-${runs.length}`);
    await writeFile(path, lines.join('\n') + '\n');
    runs.push(path);
    lines = [];
    size = 0;
  };
  for await (const batch of lineBatches(source)) {
    for (const line of batch) {
      lines.push(line);
      size += line.length;
      if (size >= runBytes) await flush();
    }
  }
  await flush();
  return runs;
}

/**
 * The non-empty lines of a file, a 1 MB chunk's worth at a time (a last line may lack its
 * newline). Readline's promise per line took most of a 5,000-line index's finalisation.
 */
async function* lineBatches(path: string): AsyncGenerator<string[]> {
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const parts = (rest + (chunk as string)).split('\n');
    rest = parts.pop()!;
    yield parts.filter((line) => line !== '');
  }
  if (rest) yield [rest];
}

/**
 * Sorts `index.cdxj.open` into `index.cdxj`, merging with an `index.cdxj` left by an earlier
 * session of the same crawl. External merge sort: at most `runBytes` of lines are held at once,
 * plus one line per run while merging.
 */
export async function finalizeIndex(dir: string, runBytes = 32 * 1024 * 1024): Promise<void> {
  const openPath = join(dir, OPEN_INDEX_NAME);
  const finalPath = join(dir, INDEX_NAME);
  if (!(await exists(openPath))) return;
  const runs = await writeSortedRuns(openPath, dir, runBytes);
  if (runs.length === 1 && !(await exists(finalPath))) {
    // One run and no earlier index: the run is the whole index, sorted already.
    const run = await open(runs[0]!, 'r+');
    try {
      await run.sync();
    } finally {
      await run.close();
    }
    await rename(runs[0]!, finalPath);
    await rm(openPath, { force: true });
    return;
  }
  const sources = [...runs];
  if (await exists(finalPath)) sources.push(finalPath);
  const tmp = join(dir, `${INDEX_NAME}.tmp`);
  const out = await open(tmp, 'w');
  try {
    const readers = sources.map((p) => ({ batches: lineBatches(p), lines: [] as string[], at: 0 }));
    const heads: Array<string | null> = [];
    const next = async (i: number) => {
      const r = readers[i]!;
      while (r.at >= r.lines.length) {
        const batch = await r.batches.next();
        if (batch.done) return (heads[i] = null);
        r.lines = batch.value;
        r.at = 0;
      }
      return (heads[i] = r.lines[r.at++]!);
    };
    for (let i = 0; i < readers.length; i++) await next(i);
    let batch = '';
    // A finalisation stopped between the rename below and removing the open index leaves every
    // line index.cdxj took in the open index too: the same line from two sources is written once.
    let last: string | null = null;
    for (;;) {
      // Few runs: a linear scan for the smallest head is simpler than a heap and as fast.
      let min = -1;
      for (let i = 0; i < heads.length; i++) {
        const h = heads[i];
        if (h !== null && (min < 0 || compareBytewise(h, heads[min] as string) < 0)) min = i;
      }
      if (min < 0) break;
      if (heads[min] !== last) batch += heads[min] + '\n';
      last = heads[min]!;
      if (batch.length > 1 << 20) {
        await out.write(batch);
        batch = '';
      }
      await next(min);
    }
    await out.write(batch);
    await out.sync();
  } finally {
    await out.close();
  }
  await rename(tmp, finalPath);
  for (const run of runs) await rm(run, { force: true });
  await rm(openPath, { force: true });
}
