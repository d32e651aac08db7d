/**
 * Independent checks of written WARC files and the CDXJ index, reading through warcio's parser
 * (the reader most replay tools build on) and through a gzip member scan of our own.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { basename, join } from 'node:path';
import { createGunzip, gunzipSync } from 'node:zlib';
import { WARCParser } from 'warcio';
import { cdxjKey, compareBytewise, parseCdxjLine, type CdxjJson } from './cdxj-index';
import { scanGzipMembers, type FilePart } from './gzip-members';
import { ChunkedDecoder, field, mediaTypeOf, parseHttpHead, parseWarcHead } from './parse-heads';
import { FileRulesChecker, checkRecordFields, summarize } from './record-rules';
import { parseLabelledDigest, type LabelledDigest } from './warc-digest';
import { cdxTimestamp } from './warc-fields';

/** A WARC file inside another file: its bytes there, and its own name. */
export interface WarcFilePart extends FilePart {
  name: string;
}

/** Outcome of {@link verifyWarcFile}. */
export interface WarcVerification {
  records: number;
  errors: string[];
  /** What departs from WARC/1.1 the way other tools' files commonly do, without damage: reported, not failed. */
  warnings: string[];
  types: Record<string, number>;
}

const CRLFCRLF = Buffer.from('\r\n\r\n');

/** Problems kept per file and kind: a file broken throughout would otherwise fill memory with messages. */
const MAX_LISTED = 1000;

/** A file's problems (or warnings), the first MAX_LISTED kept and the rest counted. */
class ProblemList {
  private readonly items: string[] = [];
  private more = 0;

  push(...problems: string[]): void {
    for (const p of problems) {
      if (this.items.length < MAX_LISTED) this.items.push(p);
      else this.more += 1;
    }
  }

  /** The problems kept, and a last line counting the others. */
  list(): string[] {
    return this.more ? [...this.items, `… and ${this.more.toLocaleString('en')} more not listed`] : this.items;
  }
}
const MAX_HTTP_HEAD = 1 << 20;
/** Whether a hash made with the algorithm of `expected` gives its bytes. */
const matches = (h: Hash, expected: LabelledDigest) => h.digest().equals(expected.bytes);

/** True when the file (from `start`) begins with gzip's magic bytes. */
async function startsWithGzip(path: string, start: number): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const magic = Buffer.alloc(2);
    const { bytesRead } = await fh.read(magic, 0, 2, start);
    return bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

/** Where a gzip member lies in the file, and the length of the record it holds. */
interface MemberPlace {
  offset: number;
  rawLength: number;
}

/**
 * The members of a file by where their records start in the decompressed stream, added in that
 * order: three numbers a member in typed arrays (a Map of objects took ~100 bytes a member).
 */
class MemberPlaces {
  private starts = new Float64Array(1024);
  private places = new Float64Array(2048);
  private size = 0;

  add(recordStart: number, place: MemberPlace): void {
    // An empty member starts where the next one does: that one holds the record, as a Map set again would say.
    if (this.size > 0 && this.starts[this.size - 1] === recordStart) this.size--;
    if (this.size === this.starts.length) {
      this.starts = grown(this.starts, this.size);
      this.places = grown(this.places, 2 * this.size);
    }
    this.starts[this.size] = recordStart;
    this.places[2 * this.size] = place.offset;
    this.places[2 * this.size + 1] = place.rawLength;
    this.size++;
  }

  get(recordStart: number): MemberPlace | undefined {
    let [lo, hi] = [0, this.size - 1];
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.starts[mid]!;
      if (at === recordStart) return { offset: this.places[2 * mid]!, rawLength: this.places[2 * mid + 1]! };
      if (at < recordStart) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
}

/** `array` twice as long, its first `used` numbers kept. */
function grown(array: Float64Array<ArrayBuffer>, used: number): Float64Array<ArrayBuffer> {
  const next = new Float64Array(array.length * 2);
  next.set(array.subarray(0, used));
  return next;
}

/**
 * Member layout from our own scan: each record must be exactly one gzip member. Keyed by where the
 * member's record starts in the decompressed stream, which is what warcio reads.
 */
async function checkMembers(path: string, errors: ProblemList, part: FilePart | undefined, onScanned: (end: number) => void, signal?: AbortSignal): Promise<{ byRecordStart: MemberPlaces; readableEnd: number }> {
  const byRecordStart = new MemberPlaces();
  let rawStart = 0;
  // warcio reads the whole members before the first that holds no WARC header: in that one it would
  // look for a header line in whatever the member holds (300 MB of zeros in a 300 KB file took 1 GB).
  let headerless: number | null = null;
  const scan = await scanGzipMembers(path, (m) => {
    signal?.throwIfAborted();
    byRecordStart.add(rawStart, { offset: m.offset, rawLength: m.rawLength });
    rawStart += m.rawLength;
    onScanned(m.offset + m.length);
    const head = parseWarcHead(m.head);
    if (!head) {
      headerless ??= m.offset;
      return void errors.push(`member at ${m.offset}: no WARC header`);
    }
    const cl = Number(field(head.fields, 'Content-Length'));
    if (m.rawLength !== head.headerLength + cl + 4) {
      errors.push(`member at ${m.offset}: holds ${m.rawLength} bytes, one record needs ${head.headerLength + cl + 4}`);
    }
    if (!m.tail.equals(CRLFCRLF)) errors.push(`member at ${m.offset}: record does not end with CRLF CRLF`);
    for (const e of checkRecordFields(head.fields, head.version)) errors.push(`member at ${m.offset}: ${e}`);
  }, 16 * 1024, part);
  if (scan.problem) errors.push(`gzip: ${scan.problem}`);
  return { byRecordStart, readableEnd: headerless ?? scan.validEnd };
}

/**
 * `length` bytes of `path` from `start`, gunzipped if `gzipped`, how many have been read so far, and
 * `close` to let go of the file when the reading stops before its end.
 */
function recordBytes(path: string, start: number, length: number, gzipped: boolean): { bytes: AsyncIterable<Uint8Array>; bytesRead: () => number; close: () => void } {
  if (length === 0) return { bytes: (async function* () {})(), bytesRead: () => 0, close: () => undefined };
  const file = createReadStream(path, { start, end: start + length - 1, highWaterMark: 1024 * 1024 });
  if (!gzipped) return { bytes: file, bytesRead: () => file.bytesRead, close: () => file.destroy() };
  const gunzip = file.pipe(createGunzip({ chunkSize: 256 * 1024 }));
  file.on('error', (err) => gunzip.destroy(err));
  return { bytes: gunzip, bytesRead: () => file.bytesRead, close: () => (file.destroy(), gunzip.destroy()) };
}

/**
 * Reads every record of a `.warc.gz` (or `.warc.gz.open`, or a plain `.warc`) with warcio and checks it: digests
 * recomputed (payload = entity body with chunking removed, content coding kept), Content-Length,
 * required fields, one record per gzip member, warcinfo first, request/response pairing, revisit
 * fields. With `part`, the WARC file is those bytes of `path` (one stored in a WACZ package), named
 * `part.name`. `onProgress` hears the share of the work done, 0 to 1 (the file is read twice).
 * An aborted `signal` stops the reading where it is, within the file (a gigabyte takes a while):
 * the call throws the signal's reason.
 */
export async function verifyWarcFile(path: string, part?: WarcFilePart, onProgress?: (fraction: number) => void, signal?: AbortSignal): Promise<WarcVerification> {
  signal?.throwIfAborted();
  const errors = new ProblemList();
  const warnings = new ProblemList();
  const types: Record<string, number> = {};
  const size = part?.length ?? (await stat(path)).size;
  // An uncompressed `.warc` (wget --no-warc-compression writes them) has no members to check, and is read once.
  const gzipped = await startsWithGzip(path, part?.start ?? 0);
  const progress = (bytes: number) => onProgress?.(size > 0 ? Math.min(1, (gzipped ? bytes : bytes - size) / ((gzipped ? 2 : 1) * size)) : 1);
  const scanned = gzipped ? await checkMembers(path, errors, part, progress, signal) : null;
  const members = scanned?.byRecordStart ?? null;
  const fileRules = new FileRulesChecker();
  // warcio reads a gzipped file's whole members (where the scan stopped, it said why; see also
  // checkMembers), decompressed by node:zlib: its own inflate, in JavaScript, took half of the time.
  // The scan checked each member on its own, and the records must line up with them.
  const { bytes, bytesRead, close } = recordBytes(path, part?.start ?? 0, scanned ? scanned.readableEnd : size, gzipped);
  const name = part?.name ?? basename(path).replace(/\.open$/, '');
  if (!gzipped && name.endsWith('.gz')) errors.push('not gzip-compressed, though named .gz');
  const parser = new WARCParser(bytes, { parseHttp: false, keepHeadersCase: true });
  try {
    for await (const record of parser) {
      signal?.throwIfAborted();
      const member = members?.get(parser.offset);
      const where = `record ${fileRules.records} at ${members ? (member ? member.offset : `decompressed offset ${parser.offset}`) : parser.offset}`;
      const type = record.warcType ?? '';
      types[type] = (types[type] ?? 0) + 1;
      const fields = [...record.warcHeaders.headers] as Array<[string, string]>;
      fileRules.add(summarize(fields));
      // A gzipped file's record headers were checked member by member; a plain file's are checked here.
      if (!members) for (const e of checkRecordFields(fields, record.warcHeaders.protocol)) errors.push(`${where}: ${e}`);
      // A plain `.warc` may be the decompressed copy of the `.warc.gz` its warcinfo names.
      const written = field(fields, 'WARC-Filename');
      if (fileRules.records === 1 && written !== name && !(!gzipped && written === `${name}.gz`)) {
        errors.push(`${where}: WARC-Filename ${written} is not the file's name`);
      }
      // Each digest is recomputed with its own algorithm; one that cannot be read is named by checkRecordFields.
      const bd = parseLabelledDigest(field(fields, 'WARC-Block-Digest') ?? '');
      const pd = parseLabelledDigest(field(fields, 'WARC-Payload-Digest') ?? '');
      const block = createHash(bd?.algorithm ?? 'sha1');
      const payload = createHash(pd?.algorithm ?? 'sha1');
      const http = record.warcContentType?.startsWith('application/http') ?? false;
      let headBuf: Buffer | null = http ? Buffer.alloc(0) : null;
      // A chunked body is de-chunked as it streams: its payload digest is of the entity body. The
      // chunked bytes are digested too: wget, wpull and older Heritrix digest those instead.
      let dechunker: ChunkedDecoder | null = null;
      let chunkedBytes: Hash | null = null;
      let total = 0;
      for await (const c of record.reader) {
        signal?.throwIfAborted();
        let chunk: Buffer = Buffer.from(c);
        block.update(chunk);
        total += chunk.length;
        if (headBuf) {
          headBuf = Buffer.concat([headBuf, chunk]);
          const end = headBuf.indexOf(CRLFCRLF);
          if (end < 0 && headBuf.length < MAX_HTTP_HEAD) continue;
          // Only a response holds a payload: a revisit of one that came chunked keeps its head alone.
          if (type === 'response' && /chunked/i.test(parseHttpHead(headBuf)?.headers['transfer-encoding'] ?? '')) {
            dechunker = new ChunkedDecoder((data) => payload.update(data));
            chunkedBytes = createHash(pd?.algorithm ?? 'sha1');
          }
          chunk = end < 0 ? Buffer.alloc(0) : headBuf.subarray(end + 4);
          headBuf = null;
        }
        if (dechunker) {
          dechunker.push(chunk);
          chunkedBytes!.update(chunk);
        } else payload.update(chunk);
      }
      const cl = Number(record.warcContentLength);
      if (total !== cl) errors.push(`${where}: Content-Length ${cl} but block has ${total} bytes`);
      if (bd && !matches(block, bd)) errors.push(`${where}: WARC-Block-Digest mismatch`);
      if (dechunker && !dechunker.complete) errors.push(`${where}: broken chunked body`);
      if (pd && type === 'response' && !matches(payload, pd)) {
        if (chunkedBytes && matches(chunkedBytes, pd)) warnings.push(`${where}: WARC-Payload-Digest is of the chunked body, not of the entity body`);
        else errors.push(`${where}: WARC-Payload-Digest mismatch`);
      }
      if (members) {
        // warcio's record length leaves out the CRLF CRLF that ends the record.
        if (!member) errors.push(`${where}: not at a gzip member boundary`);
        else if (member.rawLength !== parser.recordLength + 4) errors.push(`${where}: member length differs from warcio's`);
      }
      progress(size + bytesRead());
    }
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    errors.push(`warcio could not read the file: ${(err as Error).message}`);
  } finally {
    close();
  }
  errors.push(...fileRules.finish());
  onProgress?.(1);
  return { records: fileRules.records, errors: errors.list(), warnings: warnings.list(), types };
}

/**
 * Checks that every CDXJ line's offset/length reads back one whole gzip member holding a
 * response or revisit record for that URL and date. The WARC files an index names are in
 * `warcs` (a folder), or where `warcs` finds them (a package's stored files). `onProgress` hears
 * the share of the index read, 0..1: reading each record it points at makes an index of a large
 * collection take as long as a WARC file.
 */
export async function verifyCdxj(indexPath: string, warcs: string | ((filename: string) => WarcFilePart & { path: string } | undefined), signal?: AbortSignal, onProgress?: (fraction: number) => void): Promise<{ lines: number; errors: string[] }> {
  const errors = new ProblemList();
  const locate = typeof warcs === 'string' ? (filename: string) => ({ path: join(warcs, filename), start: 0, length: Infinity }) : warcs;
  const handles = new Map<string, OpenWarc>();
  // Records are read INDEX_BATCH at a time (or INDEX_BATCH_BYTES), and checked in line order: one
  // read after another left the check waiting on each (~0.2 ms a line).
  const batch: IndexEntry[] = [];
  let batchBytes = 0;
  const checkBatch = async () => {
    const members = await Promise.all(batch.map((e) => readMember(e)));
    batch.forEach((e, i) => {
      for (const problem of recordProblems(e, members[i]!)) errors.push(`line ${e.line}: ${problem}`);
    });
    batch.length = 0;
    batchBytes = 0;
  };
  let lines = 0;
  let previous = '';
  const indexBytes = (await stat(indexPath)).size || 1;
  const input = createReadStream(indexPath);
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      signal?.throwIfAborted();
      // By the bytes read ahead of the lines: at most a chunk (64 kB) early.
      onProgress?.(Math.min(1, input.bytesRead / indexBytes));
      if (!line) continue;
      lines++;
      const problems: string[] = [];
      // pywb binary-searches an index by the bytes of its lines (compareBytewise).
      if (compareBytewise(line, previous) < 0) problems.push('not sorted: in byte order it comes before the line above it');
      previous = line;
      const entry = await indexEntry(line, lines, handles, locate, problems);
      // Problems are listed in line order: those found now wait for the records being read.
      if (problems.length) {
        await checkBatch();
        for (const p of problems) errors.push(`line ${lines}: ${p}`);
      }
      if (!entry) continue;
      batch.push(entry);
      batchBytes += entry.length;
      if (batch.length === INDEX_BATCH || batchBytes >= INDEX_BATCH_BYTES) await checkBatch();
    }
    await checkBatch();
  } finally {
    for (const { fh } of handles.values()) await fh.close();
  }
  return { lines, errors: errors.list() };
}

const INDEX_BATCH = 64;
const INDEX_BATCH_BYTES = 16 * 1024 * 1024;

/** The record a line points at, its file opened once; null (and a problem) when there is none to read. */
async function indexEntry(
  line: string, lineNo: number, handles: Map<string, OpenWarc>,
  locate: (filename: string) => (FilePart & { path: string }) | undefined, problems: string[],
): Promise<IndexEntry | null> {
  const parsed = parseCdxjLine(line);
  if (!parsed) {
    problems.push('not CDXJ');
    return null;
  }
  const { key, timestamp, json } = parsed;
  let file = handles.get(json.filename);
  if (!file) {
    const where = locate(json.filename);
    const fh = where && (await open(where.path, 'r').catch(() => undefined));
    if (!where || !fh) {
      problems.push(`no file ${json.filename}`);
      return null;
    }
    // A loose file's own size bounds what a line may point at (a bogus length is not read).
    file = { fh, start: where.start, length: Number.isFinite(where.length) ? where.length : (await fh.stat()).size };
    handles.set(json.filename, file);
  }
  const [offset, length] = [Number(json.offset), Number(json.length)];
  if (!(offset >= 0 && length > 0 && offset + length <= file.length)) {
    problems.push(`offset/length past the end of ${json.filename}`);
    return null;
  }
  return { line: lineNo, key, timestamp, json, file, offset, length };
}

interface OpenWarc {
  fh: Awaited<ReturnType<typeof open>>;
  start: number;
  length: number;
}

interface IndexEntry {
  line: number;
  key: string;
  timestamp: string;
  json: CdxjJson;
  file: OpenWarc;
  offset: number;
  length: number;
}

async function readMember(e: IndexEntry): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(e.length);
  const { bytesRead } = await e.file.fh.read(buf, 0, e.length, e.file.start + e.offset);
  return buf.subarray(0, bytesRead);
}

/**
 * What is wrong with the gzip member an index line points at, and with what the line says of its
 * record: its key (the SURT of the record's WARC-Target-URI, as the index's own lines take it,
 * cdxjKey), its timestamp (of WARC-Date), its status, digest (WARC-Payload-Digest) and mime (of the
 * record's first Content-Type; `warc/revisit` for a revisit). Each problem says what differs.
 */
function recordProblems(e: IndexEntry, member: Buffer): string[] {
  const { json } = e;
  let raw: Buffer;
  try {
    raw = gunzipSync(member);
  } catch (err) {
    return [`offset/length is not a whole gzip member (${(err as Error).message})`];
  }
  const head = parseWarcHead(raw);
  const type = head ? field(head.fields, 'WARC-Type') : undefined;
  if (!head || (type !== 'response' && type !== 'revisit')) return [`record is ${type}`];
  const target = field(head.fields, 'WARC-Target-URI') ?? '';
  if (target !== json.url) return ['record is for another URL'];
  if (raw.length !== head.headerLength + Number(field(head.fields, 'Content-Length')) + 4) return ['member holds more or less than one record'];
  const problems: string[] = [];
  // A line of another method than GET has the request's body in its key (pywb's `__wb_method=post&…`): not a bare SURT.
  const method = (json as { method?: unknown }).method;
  const expectedKey = cdxjKey(target);
  if ((method === undefined || String(method).toUpperCase() === 'GET') && e.key !== expectedKey) {
    problems.push(`key ${e.key} is not the SURT of its record's WARC-Target-URI, ${expectedKey}`);
  }
  const date = field(head.fields, 'WARC-Date') ?? '';
  if (e.timestamp !== cdxTimestamp(date)) problems.push(`timestamp ${e.timestamp} is not its record's WARC-Date, ${date} (${cdxTimestamp(date)})`);
  const http = parseHttpHead(raw.subarray(head.headerLength));
  // A record whose block holds no HTTP head has no status: pywb writes `-`.
  const status = http?.status ? String(http.status) : null;
  const indexedStatus = json.status === undefined || json.status === '' ? '-' : String(json.status);
  if (indexedStatus !== (status ?? '-')) {
    problems.push(`status ${json.status ?? '(none)'} is not its record's, ${status ?? 'none (no HTTP status line)'}`);
  }
  const payloadDigest = field(head.fields, 'WARC-Payload-Digest');
  const digestValue = (d: string) => d.slice(d.indexOf(':') + 1);
  if (payloadDigest !== undefined && digestValue(String(json.digest ?? '')) !== digestValue(payloadDigest)) {
    problems.push(`digest ${json.digest ?? '(none)'} is not its record's WARC-Payload-Digest, ${payloadDigest}`);
  }
  if ((type === 'revisit') !== (json.mime === 'warc/revisit')) problems.push('mime/type mismatch');
  else if (type === 'response') {
    // No Content-Type: pywb writes `unk`, warcio leaves the mime out. Media types ignore case (RFC 9110 §8.3.1).
    const contentType = http?.headers['content-type'];
    const mime = mediaTypeOf(contentType);
    // Before, the index took the repeated lines joined (up to the first ';'): such a crawl's index must still pass, or it could not be exported.
    const written = String(json.mime).toLowerCase();
    const legacy = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (written !== (mime ?? 'unk').toLowerCase() && written !== legacy && !(mime === null && json.mime === undefined)) {
      problems.push(`mime ${json.mime ?? '(none)'} is not its record's first Content-Type, ${mime ?? 'none (unk)'}`);
    }
  }
  return problems;
}
