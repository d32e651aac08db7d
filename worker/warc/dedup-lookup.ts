/**
 * The payload-digest → first-capture map behind revisit records. An interface so the crawl store
 * can persist it across restarts; the in-memory default lives as long as the writer.
 */

/** Where the first capture of a payload was written. */
export interface DedupRef {
  uri: string;
  /** WARC-Date of the first capture. */
  date: string;
  recordId: string;
  payloadDigest: string;
}

/** Lookup of earlier captures by payload digest (`sha1:…`). */
export interface DedupLookup {
  get(digest: string): DedupRef | undefined | Promise<DedupRef | undefined>;
  set(digest: string, ref: DedupRef): void | Promise<void>;
  /** The capture `recordId` was not written after all: `digest` no longer refers to it. */
  forget(digest: string, recordId: string): void;
}

/** A Map-backed lookup for one crawl session. */
export class MemoryDedupLookup implements DedupLookup {
  private readonly map = new Map<string, DedupRef>();

  get(digest: string): DedupRef | undefined {
    return this.map.get(digest);
  }

  set(digest: string, ref: DedupRef): void {
    if (!this.map.has(digest)) this.map.set(digest, ref);
  }

  forget(digest: string, recordId: string): void {
    if (this.map.get(digest)?.recordId === recordId) this.map.delete(digest);
  }

  /** Number of distinct payloads seen. */
  get size(): number {
    return this.map.size;
  }
}
