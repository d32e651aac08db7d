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

/** Writes sorted runs of at most `runBytes` characters each, named `<prefix>.run-N` in `dir`; returns their paths. */
async function writeSortedRuns(source: string, dir: string, runBytes: number, prefix = INDEX_NAME): Promise<string[]> {
  const runs: string[] = [];
  let lines: string[] = [];
  let size = 0;
  const flush = async () => {
    if (!lines.length) return;
    lines.sort(compareBytewise);
    const path = join(dir, `${prefix}.run-${runs.length}`);
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

/** What a merge reads of each source at a time, and writes at a time, by default (characters). */
export const MERGE_BATCH_BYTES = 1 << 20;

/**
 * The non-empty lines of a file, a chunk of `chunkBytes` at a time (a last line may lack its
 * newline). Readline's promise per line took most of a 5,000-line index's finalisation.
 */
async function* lineBatches(path: string, chunkBytes = MERGE_BATCH_BYTES): AsyncGenerator<string[]> {
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: chunkBytes })) {
    const parts = (rest + (chunk as string)).split('\n');
    rest = parts.pop()!;
    yield parts.filter((line) => line !== '');
  }
  if (rest) yield [rest];
}

/** A source of mergeSortedFiles whose lines are not in byte order: a merge of it would not be sorted. */
export class UnsortedSource extends Error {
  constructor(readonly path: string) {
    super(`${path}: its lines are not sorted`);
  }
}

/**
 * Writes into `outPath` the lines of `sources`, files each sorted in byte order (compareBytewise),
 * merged into one sorted file, as sorting all their lines would order them; with `dropRepeats`, a
 * line equal to the one before it is written once. Holds one batch of lines per source
 * (`batchBytes`, MERGE_BATCH_BYTES by default; a heap picks the smallest head: a collection may
 * merge hundreds of crawls' indexes), whatever the files' sizes, and writes a batch at a time. A
 * source found out of order throws UnsortedSource, unless `uncheckedOrder`; an aborted `signal`
 * throws its reason. The output is written as it goes; the caller removes it on failure.
 */
export async function mergeSortedFiles(sources: readonly string[], outPath: string, opts: { dropRepeats?: boolean; uncheckedOrder?: boolean; signal?: AbortSignal; batchBytes?: number } = {}): Promise<void> {
  const batchBytes = opts.batchBytes ?? MERGE_BATCH_BYTES;
  const readers = sources.map((path) => ({ path, batches: lineBatches(path, batchBytes), lines: [] as string[], at: 0, head: '' }));
  /** The reader's next line into `head`; false at its end. */
  const advance = async (r: (typeof readers)[number]): Promise<boolean> => {
    while (r.at >= r.lines.length) {
      const batch = await r.batches.next();
      if (batch.done) return false;
      r.lines = batch.value;
      r.at = 0;
    }
    const line = r.lines[r.at++]!;
    if (!opts.uncheckedOrder && compareBytewise(line, r.head) < 0) throw new UnsortedSource(r.path);
    r.head = line;
    return true;
  };
  // A binary min-heap of the readers by their head line.
  const heap: (typeof readers)[number][] = [];
  const less = (i: number, j: number) => compareBytewise(heap[i]!.head, heap[j]!.head) < 0;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < heap.length && less(l, min)) min = l;
      if (r < heap.length && less(r, min)) min = r;
      if (min === i) return;
      swap(i, min);
      i = min;
    }
  };
  for (const r of readers) if (await advance(r)) heap.push(r);
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  const out = await open(outPath, 'w');
  try {
    let batch = '';
    let last: string | null = null;
    while (heap.length) {
      const top = heap[0]!;
      if (!opts.dropRepeats || top.head !== last) batch += top.head + '\n';
      last = top.head;
      if (batch.length > batchBytes) {
        opts.signal?.throwIfAborted();
        await out.write(batch);
        batch = '';
      }
      if (!(await advance(top))) {
        heap[0] = heap.at(-1)!;
        heap.pop();
      }
      down(0);
    }
    await out.write(batch);
    await out.sync();
  } finally {
    await out.close();
  }
}

/**
 * Writes into `outPath` every line of `sources` (files in any order), sorted in byte order, by an
 * external merge sort: sorted runs of at most `runBytes` characters written in `tmpDir`, then
 * merged (mergeSortedFiles, `batchBytes` of each run at a time). Repeated lines are kept.
 */
export async function sortFilesInto(sources: readonly string[], outPath: string, tmpDir: string, opts: { runBytes?: number; batchBytes?: number; signal?: AbortSignal } = {}): Promise<void> {
  const runs: string[] = [];
  try {
    for (const [i, source] of sources.entries()) {
      opts.signal?.throwIfAborted();
      runs.push(...(await writeSortedRuns(source, tmpDir, opts.runBytes ?? RUN_BYTES, `sort-${i}`)));
    }
    await mergeSortedFiles(runs, outPath, { signal: opts.signal, batchBytes: opts.batchBytes });
  } finally {
    for (const run of runs) await rm(run, { force: true });
  }
}

/** Lines an external sort holds at most at once (characters). */
const RUN_BYTES = 32 * 1024 * 1024;

/**
 * Sorts `index.cdxj.open` into `index.cdxj`, merging with an `index.cdxj` left by an earlier
 * session of the same crawl. External merge sort: at most `runBytes` of lines are held at once,
 * plus a batch of lines per run while merging.
 */
export async function finalizeIndex(dir: string, runBytes = RUN_BYTES): Promise<void> {
  const openPath = join(dir, OPEN_INDEX_NAME);
  const finalPath = join(dir, INDEX_NAME);
  if (!(await exists(openPath))) return;
  const runs = await writeSortedRuns(openPath, dir, runBytes);
  if (runs.length === 0 && (await exists(finalPath))) {
    // Nothing new (a run of a finished crawl, or one killed before its first capture): index.cdxj
    // stays as it is rather than being written again, a cost that grew with the crawl.
    await rm(openPath, { force: true });
    return;
  }
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
  // A finalisation stopped between the rename below and removing the open index leaves every
  // line index.cdxj took in the open index too: the same line from two sources is written once.
  // An index.cdxj of an earlier version may be in UTF-16 order: merged as it is, as it always was.
  await mergeSortedFiles(sources, tmp, { dropRepeats: true, uncheckedOrder: true });
  await rename(tmp, finalPath);
  for (const run of runs) await rm(run, { force: true });
  await rm(openPath, { force: true });
}
