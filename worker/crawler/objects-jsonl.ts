import { createHash, type Hash } from 'node:crypto';
import { closeSync, existsSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { runInTransaction } from '../store/sqlite';

/** A Web object as objects.jsonl holds it: the page it belongs to, its type and fields. */
export interface ObjectLineSource {
  type: string;
  url: string;
  fields: unknown;
}

/** A WebObject row as the database holds it (`fields` is its JSON text). */
export interface StoredObject {
  type: string;
  url: string;
  fields: string;
}

/** One line of objects.jsonl (without its newline). */
export function objectLine(o: ObjectLineSource): string {
  return JSON.stringify({ type: o.type, url: o.url, fields: o.fields });
}

/** Bytes of objects.jsonl the repair reads at a time: its memory does not grow with the file. */
export const REPAIR_CHUNK_BYTES = 64 * 1024;

/** Bytes of missing lines the repair gathers before it writes them. */
const APPEND_BATCH_BYTES = 64 * 1024;

/**
 * How many times each whole line of objects.jsonl occurs, by the SHA-256 of its bytes, in a
 * private temporary SQLite database: SQLite keeps it in its page cache and spills it to a file
 * past that, so the file's millions of lines are counted in bounded memory.
 */
export class LineTally {
  private readonly db = new Database('');
  private readonly addStmt;
  private readonly takeStmt;

  constructor() {
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec('CREATE TABLE line (digest BLOB PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID');
    this.addStmt = this.db.prepare('INSERT INTO line (digest, n) VALUES (?, 1) ON CONFLICT (digest) DO UPDATE SET n = n + 1');
    this.takeStmt = this.db.prepare('UPDATE line SET n = n - 1 WHERE digest = ? AND n > 0');
  }

  /** Counts the digests, in one transaction (a commit each would write the temporary file each time). */
  addAll(digests: Iterable<Buffer>): void {
    runInTransaction(this.db, () => {
      for (const digest of digests) this.addStmt.run(digest);
    });
  }

  /** Whether a line with `digest` is counted and not taken yet; takes it if so. */
  take(digest: Buffer): boolean {
    return this.takeStmt.run(digest).changes === 1;
  }

  close(): void {
    this.db.close();
  }
}

/** The file's bytes, `chunkBytes` at a time (one buffer, reused: a chunk is valid until the next is read). */
export function* fileChunks(path: string, chunkBytes = REPAIR_CHUNK_BYTES): Generator<Buffer> {
  if (!existsSync(path)) return;
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(chunkBytes);
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) yield buffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

const lineDigest = (line: string) => createHash('sha256').update(line).digest();

/**
 * The SHA-256 of each non-empty whole line of a file read as `chunks`, each line hashed as its
 * bytes come (a line longer than a chunk is never held whole). Once the generator is done,
 * `read.wholeBytes` is where the whole lines end (a last line without its newline is torn) and
 * `read.bytes` the file's length.
 */
function* wholeLineDigests(chunks: Iterable<Buffer>, read: { bytes: number; wholeBytes: number }): Generator<Buffer> {
  let hash: Hash = createHash('sha256');
  let lineBytes = 0;
  for (const chunk of chunks) {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      hash.update(chunk.subarray(start, newline));
      lineBytes += newline - start;
      read.wholeBytes = read.bytes + newline + 1;
      if (lineBytes > 0) yield hash.digest();
      hash = createHash('sha256');
      lineBytes = 0;
      start = newline + 1;
    }
    hash.update(chunk.subarray(start));
    lineBytes += chunk.length - start;
    read.bytes += chunk.length;
  }
}

/**
 * How to bring objects.jsonl back in line with the database, which is the truth: the file is
 * appended after a page's commit, so a crash between the two leaves committed objects out of it,
 * and a crash during the append leaves a cut last line. `keepBytes`: the file's whole lines (a
 * last line without its newline is cut off); `cutBytes`: the rest. `append`: the lines of the
 * stored objects (in `stored` order) that the whole lines do not hold, counted as a multiset, so an
 * object stored twice is written twice and none is written again; lazy, each stored object read as
 * it is reached. Lines the database does not hold are kept.
 *
 * The file is read as `chunks`. As it is written in the objects' order, its lines are first matched
 * one for one against the stored objects in order, which settles a file that only lacks its last
 * objects without counting anything; from the first line that differs, the file's lines are counted
 * in `tally` (which holds millions of them in bounded memory, but costs tens of microseconds each)
 * and each stored object left takes one of its counted lines or is appended.
 */
export function objectsJsonlRepair(chunks: Iterable<Buffer>, stored: Iterable<StoredObject>, tally: LineTally): { keepBytes: number; cutBytes: number; append: Iterable<string> } {
  const read = { bytes: 0, wholeBytes: 0 };
  const objects = stored[Symbol.iterator]();
  const lineOf = (row: StoredObject) => objectLine({ type: row.type, url: row.url, fields: JSON.parse(row.fields) as unknown });
  // The first stored object the file's lines in order did not match (read, not yet settled).
  let unmatched: { line: string; digest: Buffer } | null = null;
  let counting = false;
  const fileLines = wholeLineDigests(chunks, read);
  for (const digest of fileLines) {
    const next = objects.next();
    if (!next.done) {
      const line = lineOf(next.value);
      const objectDigest = lineDigest(line);
      if (objectDigest.equals(digest)) continue;
      unmatched = { line, digest: objectDigest };
    }
    tally.addAll([digest]);
    tally.addAll(fileLines);
    counting = true;
  }
  function* append(): Generator<string> {
    if (unmatched && !tally.take(unmatched.digest)) yield unmatched.line;
    for (let next = objects.next(); !next.done; next = objects.next()) {
      const line = lineOf(next.value);
      if (!counting || !tally.take(lineDigest(line))) yield line;
    }
  }
  return { keepBytes: read.wholeBytes, cutBytes: read.bytes - read.wholeBytes, append: append() };
}

/**
 * Repairs objects.jsonl at a crawl's start (objectsJsonlRepair): cuts a torn last line and appends
 * the crawl's committed objects it lacks. The file is read a chunk at a time and the objects one
 * row at a time, so a large crawl's resume does not hold either whole. Returns how many lines
 * were appended and how many bytes cut.
 */
export function repairObjectsJsonl(path: string, db: Database.Database, crawlId: number, chunkBytes = REPAIR_CHUNK_BYTES): { appended: number; cutBytes: number } {
  const tally = new LineTally();
  const stored = db.prepare('SELECT type, url, fields FROM WebObject WHERE crawlId = ? ORDER BY id').iterate(crawlId) as IterableIterator<StoredObject>;
  let fd: number | undefined;
  try {
    const { keepBytes, cutBytes, append } = objectsJsonlRepair(fileChunks(path, chunkBytes), stored, tally);
    let appended = 0;
    let at = keepBytes;
    let batch: string[] = [];
    let batchBytes = 0;
    const write = () => {
      fd ??= openSync(path, existsSync(path) ? 'r+' : 'w');
      at += writeSync(fd, batch.join(''), at);
      batch = [];
      batchBytes = 0;
    };
    if (cutBytes) {
      fd = openSync(path, 'r+');
      ftruncateSync(fd, keepBytes);
    }
    for (const line of append) {
      batch.push(`${line}\n`);
      batchBytes += line.length + 1;
      appended += 1;
      if (batchBytes >= APPEND_BATCH_BYTES) write();
    }
    if (batch.length) write();
    return { appended, cutBytes };
  } finally {
    // An iterator left open (a failed write) would keep the connection busy for every later statement.
    stored.return?.();
    if (fd !== undefined) closeSync(fd);
    tally.close();
  }
}
