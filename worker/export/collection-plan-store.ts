import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import type { IndexFacts } from '../warc/parse-heads';
import type { StoredRecordHead } from './collection-plan';

/** Record ids or payload digests, from a Set or read in batches from the crawl's database. */
export type StringSource = Iterable<string> | AsyncIterable<string>;

/** A record of a source file as the collection's scan keeps it. */
export interface ScannedRecord extends StoredRecordHead {
  facts?: IndexFacts;
}

/** A record the collection copies, in the order to copy it. */
export interface PlannedRecord {
  /** Index of its source file in the paths the scan read. */
  file: number;
  offset: number;
  length: number;
  type: string;
  facts?: IndexFacts;
  /** As MemberCopy.startsGroup: a collection file may end before it. */
  startsGroup: boolean;
}

/** A chosen revisit whose payload no scanned response holds. */
export interface OrphanRevisit {
  /** Index of its source file. */
  file: number;
  id: string;
  refersTo?: string;
  url?: string;
}

interface RecordRow {
  file: number;
  offset: number;
  length: number;
  type: string;
  facts: string | null;
  startsGroup?: number;
}

/** Rows written or read per transaction or query: the batch held in memory. */
const BATCH = 2000;

const SCHEMA = `
  CREATE TABLE chosen (id TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TABLE revisitDigest (digest TEXT PRIMARY KEY) WITHOUT ROWID;
  -- seq: scan order, which is source file order, then member order within a file.
  CREATE TABLE record (seq INTEGER PRIMARY KEY, file INTEGER NOT NULL, offset INTEGER NOT NULL, length INTEGER NOT NULL, type TEXT NOT NULL,
    id TEXT NOT NULL, refersTo TEXT, payloadDigest TEXT, facts TEXT, chosen INTEGER NOT NULL, planned INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE concurrent (seq INTEGER NOT NULL, toId TEXT NOT NULL);
  CREATE TABLE wanted (id TEXT PRIMARY KEY) WITHOUT ROWID;
  -- The response holding each chosen revisit's payload (seq null: none scanned holds it).
  CREATE TABLE original (revisitSeq INTEGER PRIMARY KEY, seq INTEGER);
`;

/**
 * What planCollection and revisitsWithoutOriginal work out in memory, worked out in a scratch SQLite
 * file instead: the chosen record ids, the chosen revisits' payload digests, and the scanned record
 * heads a collection may need are tables on disk, read back in batches in the order to copy them,
 * so a collection of millions of captures holds a batch of them, not all (the SQLite page cache is
 * capped too). The file is removed by close().
 */
export class CollectionPlanStore {
  private readonly db: Database.Database;
  private readonly pending: { file: number; record: ScannedRecord; chosen: boolean }[] = [];
  private readonly isChosen: Database.Statement;
  private readonly isRevisitDigest: Database.Statement;

  constructor(private readonly path: string) {
    this.db = new Database(path);
    // Scratch: nothing to recover after a crash (the export is made again from the start).
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma('locking_mode = EXCLUSIVE');
    this.db.pragma('cache_size = -16384');
    this.db.pragma('temp_store = FILE');
    this.db.exec(SCHEMA);
    this.isChosen = this.db.prepare('SELECT 1 FROM chosen WHERE id = ?').pluck();
    this.isRevisitDigest = this.db.prepare('SELECT 1 FROM revisitDigest WHERE digest = ?').pluck();
  }

  /** The chosen record ids, as mayBeNeeded asks of them. */
  readonly chosen = { has: (id: string): boolean => this.isChosen.get(id) !== undefined };
  /** The chosen revisits' payload digests, as mayBeNeeded asks of them. */
  readonly revisitDigests = { has: (digest: string): boolean => this.isRevisitDigest.get(digest) !== undefined };

  /** Takes the chosen record ids and the chosen revisits' payload digests (each once, however often given). */
  async load(chosen: StringSource, revisitDigests: StringSource, signal?: AbortSignal): Promise<void> {
    await this.insertAll('INSERT OR IGNORE INTO chosen (id) VALUES (?)', chosen, signal);
    await this.insertAll('INSERT OR IGNORE INTO revisitDigest (digest) VALUES (?)', revisitDigests, signal);
  }

  private async insertAll(sql: string, values: StringSource, signal?: AbortSignal): Promise<void> {
    const insert = this.db.prepare(sql);
    const write = this.db.transaction((batch: string[]) => {
      for (const v of batch) insert.run(v);
    });
    let batch: string[] = [];
    for await (const value of values) {
      batch.push(value);
      if (batch.length < BATCH) continue;
      signal?.throwIfAborted();
      write(batch);
      batch = [];
    }
    write(batch);
  }

  /** Keeps a scanned record (of the source file at index `file`), written to disk a batch at a time. */
  add(file: number, record: ScannedRecord): void {
    this.pending.push({ file, record, chosen: this.chosen.has(record.id) });
    if (this.pending.length >= BATCH) this.flush();
  }

  private flush(): void {
    const insert = this.db.prepare(
      'INSERT INTO record (file, offset, length, type, id, refersTo, payloadDigest, facts, chosen) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const concurrent = this.db.prepare('INSERT INTO concurrent (seq, toId) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const { file, record: r, chosen } of this.pending) {
        const { lastInsertRowid } = insert.run(file, r.offset, r.length, r.type, r.id, r.refersTo ?? null, r.payloadDigest ?? null, r.facts ? JSON.stringify(r.facts) : null, chosen ? 1 : 0);
        for (const id of r.concurrentTo) concurrent.run(lastInsertRowid, id);
      }
    })();
    this.pending.length = 0;
  }

  /**
   * Ends the scan and plans the copy as planCollection does: the chosen records found, the response
   * holding each chosen revisit's payload (the record it names in WARC-Refers-To when that is a
   * response, else the first response with its payload digest), the records concurrent to the
   * chosen ones; then, in each file holding any of them, those and the file's warcinfo records.
   * Returns the chosen revisits no scanned response holds the payload of (revisitsWithoutOriginal:
   * how many, and the first in scan order) and how many records other than warcinfo the plan copies.
   */
  plan(): { orphans: number; firstOrphan?: OrphanRevisit; copies: number } {
    this.flush();
    this.db.exec(`
      CREATE INDEX record_id ON record (id);
      CREATE INDEX record_response_digest ON record (payloadDigest, seq) WHERE type = 'response' AND payloadDigest <> '';
      CREATE INDEX concurrent_seq ON concurrent (seq);
      CREATE INDEX concurrent_to ON concurrent (toId);
      INSERT INTO original (revisitSeq, seq)
        SELECT r.seq, COALESCE(
          (SELECT n.seq FROM record n WHERE n.id = r.refersTo AND n.type = 'response' AND n.seq = (SELECT MAX(l.seq) FROM record l WHERE l.id = r.refersTo)),
          CASE WHEN r.payloadDigest <> '' THEN (SELECT MIN(d.seq) FROM record d WHERE d.type = 'response' AND d.payloadDigest = r.payloadDigest) END)
        FROM record r WHERE r.chosen AND r.type = 'revisit';
      INSERT OR IGNORE INTO wanted (id) SELECT id FROM record WHERE chosen;
      INSERT OR IGNORE INTO wanted (id) SELECT n.id FROM original o JOIN record n ON n.seq = o.seq;
      INSERT OR IGNORE INTO wanted (id) SELECT r.id FROM concurrent c JOIN record r ON r.seq = c.seq WHERE c.toId IN (SELECT id FROM record WHERE chosen);
      UPDATE record SET planned = 1
        WHERE (type = 'warcinfo' OR id IN (SELECT id FROM wanted))
        AND file IN (SELECT DISTINCT r.file FROM record r JOIN wanted w ON w.id = r.id);
    `);
    const orphans = this.db.prepare('SELECT COUNT(*) FROM original WHERE seq IS NULL').pluck().get() as number;
    const first = this.db
      .prepare('SELECT r.file, r.id, r.refersTo, r.facts FROM original o JOIN record r ON r.seq = o.revisitSeq WHERE o.seq IS NULL ORDER BY o.revisitSeq LIMIT 1')
      .get() as { file: number; id: string; refersTo: string | null; facts: string | null } | undefined;
    const copies = this.db.prepare("SELECT COUNT(*) FROM record WHERE planned AND type <> 'warcinfo'").pluck().get() as number;
    const firstOrphan = first && { file: first.file, id: first.id, refersTo: first.refersTo ?? undefined, url: first.facts ? (JSON.parse(first.facts) as IndexFacts).url : undefined };
    return { orphans, firstOrphan, copies };
  }

  /**
   * The planned records in the order to copy them (each file's in file order, files in the order
   * scanned), read a batch at a time. A record starts a group when it is concurrent to no planned
   * record before it in its file, and no such record is concurrent to it.
   */
  *planned(): Generator<PlannedRecord> {
    const batch = this.db.prepare(`
      SELECT r.seq, r.file, r.offset, r.length, r.type, r.facts,
        NOT EXISTS (SELECT 1 FROM concurrent c JOIN record e ON e.id = c.toId WHERE c.seq = r.seq AND e.planned AND e.file = r.file AND e.seq < r.seq)
        AND NOT EXISTS (SELECT 1 FROM concurrent c JOIN record e ON e.seq = c.seq WHERE c.toId = r.id AND e.planned AND e.file = r.file AND e.seq < r.seq) AS startsGroup
      FROM record r WHERE r.planned AND r.seq > ? ORDER BY r.seq LIMIT ${BATCH}`);
    for (let after = 0; ; ) {
      const rows = batch.all(after) as (RecordRow & { seq: number })[];
      for (const row of rows) yield plannedRecord(row);
      if (rows.length < BATCH) return;
      after = rows.at(-1)!.seq;
    }
  }

  /** The last warcinfo record planned from the source file at index `file` (each copied file begins with it). */
  warcinfoOf(file: number): PlannedRecord | undefined {
    const row = this.db
      .prepare("SELECT file, offset, length, type, facts, 1 AS startsGroup FROM record WHERE planned AND type = 'warcinfo' AND file = ? ORDER BY seq DESC LIMIT 1")
      .get(file) as RecordRow | undefined;
    return row && plannedRecord(row);
  }

  /** Closes the scratch file and removes it. */
  close(): void {
    if (this.db.open) this.db.close();
    rmSync(this.path, { force: true });
  }
}

function plannedRecord(row: RecordRow): PlannedRecord {
  return {
    file: row.file, offset: row.offset, length: row.length, type: row.type,
    facts: row.facts ? (JSON.parse(row.facts) as IndexFacts) : undefined, startsGroup: row.startsGroup === 1,
  };
}
