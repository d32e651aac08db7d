/**
 * Checks a WACZ package (Tidemark's or another tool's): every ZIP entry read whole with its CRC-32,
 * `datapackage.json`'s size and sha256 of each file, `datapackage-digest.json`'s hash of the
 * manifest, WARC files stored (replay tools read records at their offsets), and then the WARC files
 * and the index checked as loose ones are (worker/warc/verify-warc.ts). Stored WARC files are
 * checked where they lie in the package: a package of many gigabytes needs no room to be unpacked.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInterface } from 'node:readline';
import { crc32 } from 'node:zlib';
import { open as openZip, type Entry, type ZipFile } from 'yauzl';
import { verifyCdxj, verifyWarcFile, type WarcFilePart } from '../warc';
import { ARCHIVE, checkPageLine, checkWaczLayout, PAGE_LIST } from './wacz-rules';

/** What was read of one ZIP entry. */
export interface WaczEntry {
  bytes: number;
  /** sha256 in hex. */
  sha256: string;
  /** Stored (method 0), not deflated. */
  stored: boolean;
}

export interface WaczVerification {
  /** Entries in the ZIP. */
  files: number;
  /** Records of its WARC files, by WARC-Type. */
  types: Record<string, number>;
  records: number;
  errors: string[];
  /** Its WARC files' warnings (WarcVerification.warnings). */
  warnings: string[];
}

/** A deflated entry that would grow past this, and by more than MAX_RATIO, is not read: a ZIP bomb is a package's problem, not the disk's. */
const MAX_INFLATED_BYTES = 100 << 20;
const MAX_RATIO = 100;
const PLAIN_INDEX = /^indexes\/[^/]+\.cdxj?$/;
/** The files a package's manifest does not list: itself and its digest. */
const UNLISTED = new Set(['datapackage.json', 'datapackage-digest.json']);

/**
 * The manifest's promises checked against the entries read: each resource present with its size and
 * hash, every other entry listed, the digest file's hash of the manifest, WARC files stored; and what
 * WACZ 1.1.1 requires of the manifest and the layout (checkWaczLayout). Pure.
 */
export function checkManifest(entries: ReadonlyMap<string, WaczEntry>, manifest: string | undefined, digest: string | undefined): string[] {
  const errors: string[] = [];
  if (manifest === undefined) return ['no datapackage.json'];
  let resources: { path?: unknown; hash?: unknown; bytes?: unknown }[];
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(manifest) as Record<string, unknown>;
    if (!Array.isArray(parsed.resources)) return ['datapackage.json has no resources list'];
    resources = parsed.resources as typeof resources;
  } catch (err) {
    return [`datapackage.json is not JSON: ${(err as Error).message}`];
  }
  const listed = new Set<string>();
  for (const r of resources) {
    const path = String(r.path);
    listed.add(path);
    const e = entries.get(path);
    if (!e) errors.push(`${path}: listed in datapackage.json, not in the package`);
    else {
      if (r.bytes !== e.bytes) errors.push(`${path}: datapackage.json says ${String(r.bytes)} bytes, the file has ${e.bytes}`);
      if (r.hash !== `sha256:${e.sha256}`) errors.push(`${path}: sha256 differs from datapackage.json's`);
    }
  }
  for (const [path, e] of entries) {
    if (!listed.has(path) && !UNLISTED.has(path)) errors.push(`${path}: not listed in datapackage.json`);
    if (ARCHIVE.test(path) && !e.stored) errors.push(`${path}: deflated; a WACZ stores its WARC files so that replay can read records by range`);
  }
  if (digest !== undefined) {
    const manifestHash = `sha256:${createHash('sha256').update(manifest).digest('hex')}`;
    try {
      const d = JSON.parse(digest) as { path?: unknown; hash?: unknown };
      if (d.path !== 'datapackage.json' || d.hash !== manifestHash) errors.push("datapackage-digest.json does not hold datapackage.json's sha256");
    } catch (err) {
      errors.push(`datapackage-digest.json is not JSON: ${(err as Error).message}`);
    }
  }
  errors.push(...checkWaczLayout(parsed, entries.keys()));
  if (![...entries.keys()].some((p) => ARCHIVE.test(p))) errors.push('no WARC file under archive/');
  return errors;
}

/** A page list's bad lines named up to here, then counted: a list of a million pages may be wrong on each. */
const MAX_PAGE_LINE_ERRORS = 10;

/** Reads a page list (unpacked at `path`) line by line, as it may be large, and names its bad lines (checkPageLine). */
async function checkPageList(path: string, name: string): Promise<string[]> {
  const errors: string[] = [];
  let bad = 0;
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    n++;
    const problem = checkPageLine(line);
    if (problem && ++bad <= MAX_PAGE_LINE_ERRORS) errors.push(`${name} line ${n}: ${problem}`);
  }
  if (bad > MAX_PAGE_LINE_ERRORS) errors.push(`${name}: ${bad - MAX_PAGE_LINE_ERRORS} more bad lines`);
  return errors;
}

/** Where a package's WARC file is: its bytes in the package (stored), or the file it was unpacked to. */
type WarcPlace = WarcFilePart & { path: string };

/**
 * Reads every entry (CRC-32, size and sha256 measured on the way): stored WARC files in place,
 * the others unpacked to `dir`. A bad entry is an error; the others are still read.
 */
async function readEntries(
  zipPath: string, dir: string, errors: string[], onBytes: (n: number) => void, signal?: AbortSignal,
): Promise<{ entries: Map<string, WaczEntry>; warcs: Map<string, WarcPlace> }> {
  const entries = new Map<string, WaczEntry>();
  const warcs = new Map<string, WarcPlace>();
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    openZip(zipPath, { lazyEntries: true, autoClose: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      const name = entry.fileName;
      if (name.endsWith('/')) return zip.readEntry();
      if (entry.compressionMethod !== 0 && entry.uncompressedSize > MAX_INFLATED_BYTES && entry.uncompressedSize > MAX_RATIO * entry.compressedSize) {
        errors.push(`${name}: not read: ${entry.compressedSize} bytes that inflate to ${entry.uncompressedSize}`);
        return zip.readEntry();
      }
      const stored = entry.compressionMethod === 0;
      const inPlace = stored && ARCHIVE.test(name);
      void (async () => {
        try {
          const read = await readEntry(zip, entry, inPlace ? null : join(dir, name), onBytes, signal);
          if (read.crc !== entry.crc32) errors.push(`${name}: CRC-32 differs from the ZIP's directory (the entry is damaged)`);
          entries.set(name, { bytes: read.bytes, sha256: read.sha256, stored });
          if (inPlace) {
            const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
            warcs.set(name, { path: zipPath, start: fileDataStart, length: entry.compressedSize, name: basename(name) });
          } else if (ARCHIVE.test(name)) warcs.set(name, { path: join(dir, name), start: 0, length: read.bytes, name: basename(name) });
        } catch (err) {
          errors.push(`${name}: cannot be read: ${(err as Error).message}`);
        } finally {
          // The next entry is read whatever became of this one.
          zip.readEntry();
        }
      })();
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return { entries, warcs };
}

/** Reads an entry, to the file `to` or (null) only to measure it. */
function readEntry(zip: ZipFile, entry: Entry, to: string | null, onBytes: (n: number) => void, signal?: AbortSignal): Promise<{ bytes: number; sha256: string; crc: number }> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(err);
      if (to) mkdirSync(dirname(to), { recursive: true });
      const hash = createHash('sha256');
      let crc = 0;
      let bytes = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _enc, done) {
          // Stopped within the entry (a stored WARC file of gigabytes): this entry and the next ones fail at once.
          if (signal?.aborted) return done(signal.reason as Error);
          hash.update(chunk);
          crc = crc32(chunk, crc);
          bytes += chunk.length;
          onBytes(chunk.length);
          done(null, chunk);
        },
      });
      const sink = to ? createWriteStream(to) : new Writable({ write: (_chunk, _enc, done) => done() });
      pipeline(stream, measure, sink).then(() => resolve({ bytes, sha256: hash.digest('hex'), crc }), reject);
    }),
  );
}

/**
 * Verifies the package at `path`; files other than stored WARC files are unpacked into a temporary
 * folder (removed after). Never throws for a bad package: what is wrong is in `errors`, each naming
 * the file inside it. An aborted `signal` stops it where it is (the call throws the signal's reason).
 */
export async function verifyWacz(path: string, onProgress?: (fraction: number) => void, signal?: AbortSignal): Promise<WaczVerification> {
  const dir = mkdtempSync(join(tmpdir(), 'tidemark-wacz-'));
  const errors: string[] = [];
  const warnings: string[] = [];
  const types: Record<string, number> = {};
  let records = 0;
  try {
    let entries: Map<string, WaczEntry>;
    let warcs: Map<string, WarcPlace>;
    try {
      // Progress by bytes read: every entry once, then each WARC file twice (verifyWarcFile).
      const zipBytes = statSync(path).size;
      let read = 0;
      ({ entries, warcs } = await readEntries(path, dir, errors, (n) => onProgress?.(Math.min(1, (read += n) / zipBytes) / 3), signal));
    } catch (err) {
      signal?.throwIfAborted();
      return { files: 0, types, records, errors: [`not a readable ZIP file: ${(err as Error).message}`], warnings };
    }
    signal?.throwIfAborted();
    const text = (name: string) => (entries.has(name) ? readFileSync(join(dir, name), 'utf8') : undefined);
    errors.push(...checkManifest(entries, text('datapackage.json'), text('datapackage-digest.json')));
    for (const name of [...entries.keys()].filter((p) => PAGE_LIST.test(p)).sort()) errors.push(...(await checkPageList(join(dir, name), name)));
    const warcBytes = [...warcs.values()].reduce((sum, w) => sum + w.length, 0);
    let done = 0;
    for (const [name, place] of [...warcs].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const v = await verifyWarcFile(place.path, place, (f) => onProgress?.(1 / 3 + ((2 / 3) * (done + f * place.length)) / Math.max(1, warcBytes)), signal);
      done += place.length;
      records += v.records;
      for (const [t, n] of Object.entries(v.types)) types[t] = (types[t] ?? 0) + n;
      errors.push(...v.errors.map((e) => `${name}: ${e}`));
      warnings.push(...v.warnings.map((w) => `${name}: ${w}`));
    }
    // An index names WARC files as they are under archive/. Compressed indexes (.idx with .cdx.gz) are not read here.
    const byFilename = new Map([...warcs.values()].map((w) => [w.name, w]));
    for (const name of [...entries.keys()].filter((p) => PLAIN_INDEX.test(p)).sort()) {
      const v = await verifyCdxj(join(dir, name), (filename) => byFilename.get(filename), signal);
      errors.push(...v.errors.map((e) => `${name}: ${e}`));
    }
    return { files: entries.size, types, records, errors, warnings };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
