/** Bytes of a file held in memory, from `pos` on. */
export interface ReadWindow {
  file: string;
  pos: number;
  bytes: Buffer;
}

/**
 * The last few windows read of a crawl's WARC files, the most recently used first. A collection's
 * walk reads its pages in file order, and between two pages the requisites they bring, written
 * elsewhere (a host's stylesheet, fetched with its first page): with one window, each such read
 * threw the pages' window away, and the next page read it again (a preview of 45,000 pages of
 * 5,000 hosts made 22,000 reads of a megabyte, 102 s). Kept here, the pages' window stays.
 *
 * At most `keep` windows of all files together, each at most `maxWindowBytes`: a window read larger
 * to hold one long member (up to 64 MB, a sitemap's out-links) is not kept. Kept per file and at any
 * length, a walk held 4 windows of each file it had read, up to 64 MB each, until it ended.
 */
export class ReadWindows {
  private windows: ReadWindow[] = [];

  constructor(private readonly keep: number, private readonly maxWindowBytes: number) {}

  /** The bytes of `file` from `pos` to at least `end` (or to `fileEnd`, when that comes first) from a window holding them; undefined when none does. */
  bytesAt(file: string, pos: number, end: number, fileEnd: number): Buffer | undefined {
    const upTo = Math.min(end, fileEnd);
    const i = this.windows.findIndex((w) => w.file === file && pos >= w.pos && upTo <= w.pos + w.bytes.length);
    if (i < 0) return undefined;
    const [w] = this.windows.splice(i, 1);
    this.windows.unshift(w!);
    return w!.bytes.subarray(pos - w!.pos);
  }

  /** Keeps a window just read (unless longer than `maxWindowBytes`), letting go of the least recently used beyond `keep`. */
  add(window: ReadWindow): void {
    if (window.bytes.length > this.maxWindowBytes) return;
    this.windows.unshift(window);
    this.windows.length = Math.min(this.windows.length, this.keep);
  }

  /** Bytes the windows kept hold. */
  get heldBytes(): number {
    return this.windows.reduce((sum, w) => sum + w.bytes.length, 0);
  }
}
