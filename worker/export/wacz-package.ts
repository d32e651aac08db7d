/**
 * WACZ packaging (Webrecorder's WACZ 1.1.1): a crawl's or a collection's WARC files, its sorted
 * CDXJ index and its pages in one ZIP that ReplayWeb.page opens by HTTP range requests, with a
 * `datapackage.json` listing the sha256 of every file. Every entry is stored, not deflated: the
 * WARC files are gzip members already, and replay tools read records at their offsets.
 */
import { createHash } from 'node:crypto';
import { closeSync, createWriteStream, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { SOFTWARE } from '../warc/warc-fields';

export const WACZ_VERSION = '1.1.1';

/** The part of a package's progress that listing its pages takes, when they are counted (their text is read). */
export const PAGE_LIST_SHARE = 0.5;

/** An entry of `pages/pages.jsonl`: a page to browse the collection from. */
export interface WaczPage {
  url: string;
  /** RFC 3339 date of the capture. */
  ts: string;
  /** The page's title, shown in a replay tool's page list. */
  title?: string | null;
  /** The page's visible text, which ReplayWeb.page searches when the list says it has text. */
  text?: string;
  /**
   * Its capture's WARC-Truncated value when its body was cut short (Capture.truncated: `length`,
   * `time`, `disconnect`): the page replays incomplete. A property of our own, which WACZ 1.1.1 allows.
   */
  truncated?: string | null;
}

/** A file in the package as `datapackage.json` lists it. */
export interface WaczResource {
  name: string;
  path: string;
  hash: string;
  bytes: number;
}

export interface WaczDescription {
  title: string;
  description: string;
  created: Date;
  /** The page replay opens on; the first of the pages when not given. */
  mainPage?: WaczPage;
}

/** The first line of `pages/pages.jsonl`; `hasText` tells ReplayWeb.page to index the pages' text for search. */
export function pagesHeaderLine(hasText: boolean): string {
  return `${JSON.stringify({ format: 'json-pages-1.0', id: 'pages', title: 'All Pages', ...(hasText ? { hasText: true } : {}) })}\n`;
}

/** The line of the `n`th page (from 1, its id): its URL and date, and its title, text and cut when it has them. */
export function pageLine(p: WaczPage, n: number): string {
  return `${JSON.stringify({ id: `p${n}`, url: p.url, ts: p.ts, ...(p.title ? { title: p.title } : {}), ...(p.text !== undefined ? { text: p.text } : {}), ...(p.truncated ? { truncated: p.truncated } : {}) })}\n`;
}

/**
 * Writes `pages.jsonl` to `path` as the pages come (a crawl may list millions: they are never all
 * in memory), hashing it as it goes; returns it as a package input, and the first page.
 */
async function writePagesFile(path: string, pages: Iterable<WaczPage> | AsyncIterable<WaczPage>, hasText: boolean, signal?: AbortSignal, onListed?: (pages: number) => void): Promise<{ file: WaczInputFile; first?: WaczPage }> {
  let first: WaczPage | undefined;
  let n = 0;
  let bytes = 0;
  const hash = createHash('sha256');
  const fd = openSync(path, 'w');
  const write = (text: string) => {
    const chunk = Buffer.from(text);
    hash.update(chunk);
    bytes += writeSync(fd, chunk);
  };
  try {
    let batch = pagesHeaderLine(hasText);
    for await (const p of pages) {
      signal?.throwIfAborted();
      first ??= { url: p.url, ts: p.ts };
      batch += pageLine(p, ++n);
      onListed?.(n);
      if (batch.length > 1 << 20) {
        write(batch);
        batch = '';
      }
    }
    write(batch);
  } finally {
    closeSync(fd);
  }
  return { file: { path, inPackage: 'pages/pages.jsonl', bytes, sha256: hash.digest('hex') }, first };
}

/** `datapackage.json`'s content: the package's description and its files (all but itself and its digest). */
export function datapackage(d: WaczDescription, resources: readonly WaczResource[]): Record<string, unknown> {
  return {
    profile: 'data-package',
    wacz_version: WACZ_VERSION,
    title: d.title,
    // Markdown, which plain text is.
    description: d.description,
    created: d.created.toISOString(),
    // WACZ 1.1.1 lists `modified` among the properties a manifest SHOULD have; a package is
    // written once, whole, so it was last modified when it was created.
    modified: d.created.toISOString(),
    software: SOFTWARE,
    ...(d.mainPage ? { mainPageUrl: d.mainPage.url, mainPageDate: d.mainPage.ts } : {}),
    resources,
  };
}

/** `datapackage-digest.json`: the manifest's own hash, which makes it a digest of the whole package. */
export function datapackageDigest(manifest: Buffer): Record<string, string> {
  return { path: 'datapackage.json', hash: sha256Of(manifest) };
}

function sha256Of(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * A file on disk going into the package, with the size and sha256 (hex) its export already
 * measured when it verified it: the package reads it once more, to copy it, not again to hash it.
 */
export interface WaczInputFile {
  path: string;
  /** Path inside the package, e.g. `archive/x.warc.gz`. */
  inPackage: string;
  bytes: number;
  sha256: string;
}

/**
 * Writes the package to `outPath` and returns its size and sha256 (hex). Each input
 * file goes where it says: WARC files under `archive/`, the sorted CDXJ index under `indexes/`,
 * extras outside the WACZ folders. The page list is written first, then every file is copied
 * into the package: progress 0..1 counts the pages listed out of `expectedPages` (when given: the
 * first PAGE_LIST_SHARE of it), then the bytes copied, the page list's included, so it reaches 1
 * only at the end (it stood at 1 while the pages' text was still being read). It is written as
 * `<outPath>.open` and renamed when whole; a failure removes it.
 */
export async function writeWacz(opts: {
  outPath: string;
  warcs: readonly WaczInputFile[];
  index: WaczInputFile;
  pages: Iterable<WaczPage> | AsyncIterable<WaczPage>;
  /** The pages carry their text (pages.jsonl then says so). */
  pagesHaveText?: boolean;
  /** How many pages `pages` yields, when listing them takes a while (a crawl's pages are read from its database, their text perhaps from its WARC files): progress then counts them. */
  expectedPages?: number;
  extras?: readonly WaczInputFile[];
  description: WaczDescription;
  onProgress?: (fraction: number) => void;
  /** Aborting it stops the package where it is: the partial file is removed and the call throws the signal's reason. */
  signal?: AbortSignal;
}): Promise<{ bytes: number; sha256: string }> {
  opts.signal?.throwIfAborted();
  const zip = new ZipFile();
  const mtime = opts.description.created;
  const resources: WaczResource[] = [];
  const pagesPath = `${opts.outPath}.pages.jsonl`;
  // Written under another name and renamed when whole, as WARC files are: a process killed
  // mid-way never leaves a file that looks like a finished package.
  const openPath = `${opts.outPath}.open`;
  const addFile = (f: WaczInputFile) => {
    zip.addFile(f.path, f.inPackage, { compress: false, mtime });
    resources.push({ name: f.inPackage.slice(f.inPackage.lastIndexOf('/') + 1), path: f.inPackage, hash: `sha256:${f.sha256}`, bytes: f.bytes });
  };
  const addBuffer = (bytes: Buffer, inPackage: string) => zip.addBuffer(bytes, inPackage, { compress: false, mtime });
  const listShare = opts.expectedPages ? PAGE_LIST_SHARE : 0;
  // Progress is by the files' bytes (the page list's once written): the generated entries are small beside them.
  let totalBytes = [...opts.warcs, opts.index, ...(opts.extras ?? [])].reduce((n, f) => n + f.bytes, 0);

  const packageHash = createHash('sha256');
  let written = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _enc, done) {
      packageHash.update(chunk);
      written += chunk.length;
      opts.onProgress?.(listShare + (1 - listShare) * Math.min(1, written / (totalBytes || 1)));
      done(null, chunk);
    },
  });
  // yazl reports a file it cannot read on the ZipFile, not on its stream: end the write with it.
  zip.on('error', (err: Error) => counted.destroy(err));
  // Opened now, not by the stream: a stream opens its file later, and a package that fails at once
  // would then create it after the clean-up below has removed it.
  const fd = openSync(openPath, 'w');
  let writing: Promise<void> | undefined;
  // While the pages are listed the stream is not begun (destroying it then would be an error no
  // one hears): the listing sees the signal itself.
  const abort = () => writing && counted.destroy(opts.signal!.reason as Error);
  opts.signal?.addEventListener('abort', abort, { once: true });
  try {
    const listed = (n: number) => opts.onProgress?.(listShare * Math.min(1, n / opts.expectedPages!));
    const pagesList = await writePagesFile(pagesPath, opts.pages, opts.pagesHaveText ?? false, opts.signal, listShare ? listed : undefined);
    totalBytes += pagesList.file.bytes;
    opts.signal?.throwIfAborted();
    writing = pipeline(zip.outputStream, counted, createWriteStream(openPath, { fd }));
    // It may fail while files are still being added; it is awaited (and its error thrown) below.
    writing.catch(() => undefined);
    for (const warc of opts.warcs) addFile(warc);
    addFile(opts.index);
    addFile(pagesList.file);
    for (const extra of opts.extras ?? []) addFile(extra);
    const manifest = Buffer.from(JSON.stringify(datapackage({ ...opts.description, mainPage: opts.description.mainPage ?? pagesList.first }, resources), null, 2));
    addBuffer(manifest, 'datapackage.json');
    addBuffer(Buffer.from(JSON.stringify(datapackageDigest(manifest), null, 2)), 'datapackage-digest.json');
    zip.end();
    await writing;
    // Aborted as the last bytes were written: not renamed, as the caller was told it would not be.
    opts.signal?.throwIfAborted();
    renameSync(openPath, opts.outPath);
  } catch (err) {
    // Before the copy began, the file is not the stream's to close.
    if (writing) {
      counted.destroy(err as Error);
      await writing.catch(() => undefined);
    } else closeSync(fd);
    rmSync(openPath, { force: true });
    throw err;
  } finally {
    opts.signal?.removeEventListener('abort', abort);
    rmSync(pagesPath, { force: true });
  }
  return { bytes: written, sha256: packageHash.digest('hex') };
}
