import { createReadStream } from 'node:fs';
import { link as hardLink, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';

/** Makes `to` a hard link to `from` (fs.promises.link). */
export type LinkFile = (from: string, to: string) => Promise<void>;

export interface SnapshotOptions {
  /**
   * Called as files are copied (links cost nothing and are not counted): the bytes copied so far
   * and the bytes there are to copy, known once every link was tried.
   */
  onProgress?: (copied: number, toCopy: number) => void;
  /** How a WARC file is hard-linked; fs.promises.link unless a test gives its own. */
  link?: LinkFile;
  /** Stops the copies where they are (a cancelled export): the partial copy is removed, and the call throws the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Takes the crawl's files `names` from `crawlDir` into an export's own folder `exportDir`, so the
 * export stays as it was made when the crawl is resumed. A closed WARC file is written once and
 * never changed (the writer creates `<name>.open` exclusively and renames it when closed): it is
 * hard-linked, which costs no room, and copied where links cannot be made (another file system:
 * EXDEV). Every other file (the CDXJ index, rewritten when the crawl pauses again; the coherence
 * certificate, written in place) is copied. Copies are streamed (copyFileStreamed), so a file of
 * gigabytes on another file system does not hold the worker's thread, which runs the crawls too.
 */
export async function snapshotCrawlFiles(crawlDir: string, exportDir: string, names: readonly string[], opts: SnapshotOptions = {}): Promise<void> {
  const link = opts.link ?? hardLink;
  await mkdir(exportDir, { recursive: true });
  const toCopy: string[] = [];
  for (const name of names) {
    opts.signal?.throwIfAborted();
    if (name.endsWith('.warc.gz')) {
      try {
        await link(join(crawlDir, name), join(exportDir, name));
        continue;
      } catch {
        // Copied below; a file that is not there fails the copy too, naming it.
      }
    }
    toCopy.push(name);
  }
  const sizes = await Promise.all(toCopy.map(async (name) => (await stat(join(crawlDir, name)).catch(() => ({ size: 0 }))).size));
  const total = sizes.reduce((sum, n) => sum + n, 0);
  let before = 0;
  for (const [i, name] of toCopy.entries()) {
    await copyFileStreamed(join(crawlDir, name), join(exportDir, name), (copied) => opts.onProgress?.(before + copied, total), opts.signal);
    before += sizes[i]!;
  }
  opts.onProgress?.(total, total);
}

/**
 * Copies `from` to `to` as a stream, reporting the bytes copied so far. Written as `<to>.copying`
 * (opened exclusively before the copy starts) and renamed to `to` when whole, in `to`'s folder, so
 * `to` never names a partial copy; a failure removes the partial one and throws the error as it came.
 */
export async function copyFileStreamed(from: string, to: string, onBytes?: (copied: number) => void, signal?: AbortSignal): Promise<void> {
  const partial = `${to}.copying`;
  // Opened here, not by the stream, which would open it later: a copy that fails at once would
  // then create it after the clean-up below.
  const handle = await open(partial, 'wx');
  let copied = 0;
  try {
    await pipeline(
      createReadStream(from),
      new Transform({
        transform(chunk: Buffer, _enc, done) {
          copied += chunk.length;
          onBytes?.(copied);
          done(null, chunk);
        },
      }),
      handle.createWriteStream(),
      { signal },
    );
    await rename(partial, to);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(partial, { force: true });
    // As it came: its code (ENOSPC, say) tells the export's failure what happened (exportFailureReason).
    throw signal?.aborted ? signal.reason : err;
  }
}
