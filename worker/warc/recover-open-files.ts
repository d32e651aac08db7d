/**
 * Recovery after a crash (even SIGKILL): every `*.warc.gz.open` in the crawl's folder is cut
 * back to the end of its last whole gzip member; `index.cdxj.open` loses its torn last line and
 * any line pointing past a cut, and gains lines for whole records whose line was never written;
 * then the files are closed (renamed to `.warc.gz`) and the writer starts a new file.
 */
import { createReadStream } from 'node:fs';
import { open, readdir, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { scanGzipMembers } from './gzip-members';
import { field, indexFactsOf, parseWarcHead } from './parse-heads';
import { cdxjLine, OPEN_INDEX_NAME, parseCdxjLine } from './cdxj-index';

/** One whole record kept in a recovered file. */
export interface KeptRecord {
  offset: number;
  length: number;
  type: string;
  recordId: string;
  targetUri?: string;
}

/** What recovery did to one file. */
export interface RecoveredFile {
  /** The closed name (`….warc.gz`), or null when nothing whole was left and the file was removed. */
  filename: string | null;
  openFilename: string;
  recordsKept: number;
  bytesCut: number;
  /** End of the last whole record: captures recorded at or past it must be fetched again. */
  keptEnd: number;
  records: KeptRecord[];
  problem: string | null;
}

/** What `WarcWriter.open()` recovered. */
export interface RecoveryReport {
  files: RecoveredFile[];
  indexLinesDropped: number;
  indexLinesAdded: number;
}

/** Name of a WARC file: `<crawlId>-<YYYYMMDDhhmmss>-<serial>.warc.gz`. */
export function warcFilename(crawlId: string, created: Date, serial: number): string {
  const ts = created.toISOString().replace(/[^0-9]/g, '').slice(0, 14);
  return `${crawlId}-${ts}-${String(serial).padStart(5, '0')}.warc.gz`;
}

/** The WARC writer's id for crawl `crawlId`, which begins its files' names. */
export const crawlWarcId = (crawlId: number): string => `tidemark-${crawlId}`;

/** The serial of `name` when it is one of writer `crawlId`'s WARC files (closed or open, as {@link warcFilename} names them), else null. */
function serialOf(crawlId: string, name: string): number | null {
  if (!name.startsWith(`${crawlId}-`)) return null;
  const m = /^-\d{14}-(\d{5,})\.warc\.gz(\.open)?$/.exec(name.slice(crawlId.length));
  return m ? Number(m[1]) : null;
}

/**
 * Whether `name` is one of writer `crawlId`'s WARC files, closed or open. A folder may hold other
 * tools' files (the CLI's --out is the user's folder): they are neither recovered nor packaged.
 */
export const isWarcFileOf = (crawlId: string, name: string): boolean => serialOf(crawlId, name) !== null;

/** Highest serial among this crawl's WARC files in `names` (closed or open), or -1. */
export function highestSerial(crawlId: string, names: string[]): number {
  return Math.max(-1, ...names.map((name) => serialOf(crawlId, name) ?? -1));
}

async function recoverFile(dir: string, openName: string, missingLines: string[]): Promise<RecoveredFile> {
  const path = join(dir, openName);
  const closedName = openName.slice(0, -'.open'.length);
  const records: KeptRecord[] = [];
  const scan = await scanGzipMembers(path, (m) => {
    const head = parseWarcHead(m.head);
    if (!head) return;
    const type = field(head.fields, 'WARC-Type') ?? '';
    const targetUri = field(head.fields, 'WARC-Target-URI');
    records.push({ offset: m.offset, length: m.length, type, recordId: field(head.fields, 'WARC-Record-ID') ?? '', targetUri });
    const facts = indexFactsOf(head.fields, m.head.subarray(head.headerLength));
    if (facts) missingLines.push(cdxjLine({ ...facts, length: m.length, offset: m.offset, filename: closedName }));
  });
  const result: RecoveredFile = {
    filename: closedName,
    openFilename: openName,
    recordsKept: records.length,
    bytesCut: scan.fileSize - scan.validEnd,
    keptEnd: scan.validEnd,
    records,
    problem: scan.problem,
  };
  if (scan.validEnd < scan.fileSize) await truncate(path, scan.validEnd);
  if (scan.validEnd === 0) result.filename = null;
  return result;
}

/** Closes a recovered file: renamed once synced, or removed when nothing whole was left. */
async function closeRecovered(dir: string, file: RecoveredFile): Promise<void> {
  const path = join(dir, file.openFilename);
  if (file.filename === null) return void (await rm(path, { force: true }));
  const fh = await open(path, 'r+');
  await fh.sync();
  await fh.close();
  await rename(path, join(dir, file.filename));
}

/** Whether a file ends with a newline (an index line cut mid-write does not). */
async function endsWithNewline(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    if (size === 0) return true;
    const one = Buffer.alloc(1);
    await fh.read(one, 0, 1, size - 1);
    return one[0] === 0x0a;
  } finally {
    await fh.close();
  }
}

/** Rewrites `index.cdxj.open` (streaming) keeping whole, valid lines and adding the missing ones. */
async function recoverIndex(
  dir: string,
  files: RecoveredFile[],
  candidateLines: string[],
): Promise<{ dropped: number; added: number }> {
  const path = join(dir, OPEN_INDEX_NAME);
  if (!(await stat(path).then(() => true, () => false))) {
    if (!candidateLines.length) return { dropped: 0, added: 0 };
    await writeFile(path, '');
  }
  const tornTail = !(await endsWithNewline(path));
  const keptEnd = new Map(files.map((f) => [f.openFilename.slice(0, -'.open'.length), f.keptEnd]));
  const tmp = path + '.tmp';
  const out = await open(tmp, 'w');
  let dropped = 0;
  let added = 0;
  const present = new Set<string>();
  try {
    let previous: string | null = null;
    const keep = async (line: string) => {
      const parsed = parseCdxjLine(line);
      const end = parsed ? keptEnd.get(parsed.json.filename) : undefined;
      if (!parsed || (end !== undefined && Number(parsed.json.offset) + Number(parsed.json.length) > end)) {
        dropped++;
        return;
      }
      // Only lines of recovered files can be missing: remember just those.
      if (end !== undefined) present.add(`${parsed.json.filename} ${parsed.json.offset}`);
      await out.write(line + '\n');
    };
    // One line behind, so the last line can be judged torn or whole.
    for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
      if (previous !== null) await keep(previous);
      previous = line;
    }
    if (previous !== null) {
      if (tornTail) dropped++;
      else await keep(previous);
    }
    for (const line of candidateLines) {
      const parsed = parseCdxjLine(line.trimEnd());
      if (!parsed || present.has(`${parsed.json.filename} ${parsed.json.offset}`)) continue;
      await out.write(line);
      added++;
    }
    await out.sync();
  } finally {
    await out.close();
  }
  await rename(tmp, path);
  return { dropped, added };
}

/**
 * Recovers every `.warc.gz.open` of writer `crawlId` in the folder, and the open index. The files keep their `.open`
 * name until the index was rewritten: stopped before (a crash, a full disk), the next start
 * recovers them again and drops the index lines of what was cut; renamed first, they were closed
 * files the next start left alone, with those lines pointing past their end.
 */
export async function recoverOpenFiles(dir: string, crawlId: string): Promise<RecoveryReport> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.warc.gz.open') && isWarcFileOf(crawlId, n)).sort();
  const files: RecoveredFile[] = [];
  const candidateLines: string[] = [];
  for (const name of names) files.push(await recoverFile(dir, name, candidateLines));
  const { dropped, added } = await recoverIndex(dir, files, candidateLines);
  for (const file of files) await closeRecovered(dir, file);
  return { files, indexLinesDropped: dropped, indexLinesAdded: added };
}
