/** Bytes of a file held in memory, from `pos` on. */
export interface ReadWindow {
  pos: number;
  bytes: Buffer;
}

/**
 * The last few windows read of one file, the most recently used first. A collection's walk reads
 * its pages in file order, and between two pages the requisites they bring, written elsewhere in
 * the file (a host's stylesheet, fetched with its first page): with one window, each such read
 * threw the pages' window away, and the next page read it again (a preview of 45,000 pages of
 * 5,000 hosts made 22,000 reads of a megabyte, 102 s). Kept here, the pages' window stays.
 */
export class ReadWindows {
  private windows: ReadWindow[] = [];

  constructor(private readonly keep: number) {}

  /** The bytes from `pos` to at least `end` (or to `fileEnd`, when that comes first) from a window holding them; undefined when none does. */
  bytesAt(pos: number, end: number, fileEnd: number): Buffer | undefined {
    const upTo = Math.min(end, fileEnd);
    const i = this.windows.findIndex((w) => pos >= w.pos && upTo <= w.pos + w.bytes.length);
    if (i < 0) return undefined;
    const [w] = this.windows.splice(i, 1);
    this.windows.unshift(w!);
    return w!.bytes.subarray(pos - w!.pos);
  }

  /** Keeps a window just read, letting go of the least recently used beyond `keep`. */
  add(window: ReadWindow): void {
    this.windows.unshift(window);
    this.windows.length = Math.min(this.windows.length, this.keep);
  }
}
