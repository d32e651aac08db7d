import type Database from 'better-sqlite3';
import type { DedupLookup, DedupRef } from '../warc';

/**
 * Payload-digest lookup for revisit records that survives restarts: the latest captures from
 * memory (also those not committed yet), older ones and earlier runs' from the Capture table
 * (indexed by crawl and digest). Memory holds at most `maxRemembered` digests, the newest: a crawl
 * of millions of pages would otherwise keep ~0.5 KB for each.
 */
export class SqliteDedupLookup implements DedupLookup {
  private readonly recent = new Map<string, DedupRef>();
  private readonly query;

  constructor(
    db: Database.Database,
    private readonly crawlId: number,
    private readonly maxRemembered = 5_000,
  ) {
    // Whole bodies only, as the WARC writer remembers them: a revisit must not stand for a payload through a cut record.
    this.query = db.prepare(
      "SELECT url, fetchedAt, warcRecordId FROM Capture WHERE crawlId = ? AND payloadDigest = ? AND recordType = 'response' AND warcRecordId IS NOT NULL AND truncated IS NULL ORDER BY id LIMIT 1",
    );
  }

  get(digest: string): DedupRef | undefined {
    const hit = this.recent.get(digest);
    if (hit) return hit;
    const row = this.query.get(this.crawlId, digest) as { url: string; fetchedAt: string; warcRecordId: string } | undefined;
    if (!row) return undefined;
    const ref: DedupRef = { uri: row.url, date: new Date(row.fetchedAt).toISOString(), recordId: row.warcRecordId, payloadDigest: digest };
    this.remember(digest, ref);
    return ref;
  }

  set(digest: string, ref: DedupRef): void {
    if (!this.recent.has(digest)) this.remember(digest, ref);
  }

  forget(digest: string, recordId: string): void {
    if (this.recent.get(digest)?.recordId === recordId) this.recent.delete(digest);
  }

  private remember(digest: string, ref: DedupRef): void {
    // A Map iterates in insertion order: its first key is the oldest digest.
    if (this.recent.size >= this.maxRemembered) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(digest, ref);
  }
}
