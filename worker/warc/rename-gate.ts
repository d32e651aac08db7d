/**
 * When a closed WARC file may take its final name. A file keeps its `.open` name until every
 * capture written into it was acknowledged by the database: the next start cuts `.open` files
 * back to their first unacknowledged capture (crawler/warc-reconcile.ts), and never touches a
 * closed `.warc.gz` (exports hard-link those). A rotation closes a file while the last captures
 * written into it still wait for their commit; renamed at once, a crash or a refused commit left
 * them in a file nothing cuts, and their pages, fetched again, were archived twice.
 */
export class RenameGate {
  /** Captures written into each file and not yet acknowledged. */
  private readonly waiting = new Map<string, number>();
  /** Files closed (synced) that still wait for acknowledgements, under their `.open` name. */
  private readonly closed = new Set<string>();
  /** Renames started by an acknowledgement, in order. */
  private renaming: Promise<void> = Promise.resolve();
  private failure: Error | null = null;

  /** `rename(filename)` gives `<filename>.open` its final name. */
  constructor(private readonly rename: (filename: string) => Promise<void>) {}

  /** A capture was written into `filename`: the file waits for its acknowledgement. */
  written(filename: string): void {
    this.waiting.set(filename, (this.waiting.get(filename) ?? 0) + 1);
  }

  /** A capture in `filename` was acknowledged (its commit is durable). */
  acknowledged(filename: string): void {
    const left = (this.waiting.get(filename) ?? 0) - 1;
    if (left > 0) return void this.waiting.set(filename, left);
    this.waiting.delete(filename);
    if (!this.closed.delete(filename)) return;
    // Not awaited by the commit that acknowledged it; close() and abandon() wait for it.
    this.renaming = this.renaming.then(() => this.rename(filename)).catch((err: unknown) => {
      this.failure ??= err instanceof Error ? err : new Error(String(err));
    });
  }

  /** A capture counted by written() failed before any of it was written: the file no longer waits for it. */
  notWritten(filename: string): void {
    this.acknowledged(filename);
  }

  /** `filename` was closed: renamed now when nothing in it waits, else once the last capture is acknowledged. */
  async fileClosed(filename: string): Promise<void> {
    if (this.waiting.has(filename)) this.closed.add(filename);
    else await this.rename(filename);
  }

  /**
   * The writer closes cleanly, every commit done: renames every file still waiting. Throws a
   * rename that failed.
   */
  async renameAll(): Promise<void> {
    await this.renaming;
    for (const filename of [...this.closed]) {
      this.closed.delete(filename);
      await this.rename(filename);
    }
    this.waiting.clear();
    if (this.failure) throw this.failure;
  }

  /** The writer lets go as a crash would: renames under way end, the files still waiting keep their `.open` name. */
  async settle(): Promise<void> {
    await this.renaming;
  }
}
