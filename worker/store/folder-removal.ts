import { readdirSync, rmdirSync, unlinkSync, type Dirent } from 'node:fs';
import { join, relative } from 'node:path';

/** The system's code of a failed file operation (EPERM, EBUSY …), or 'error' for anything else. */
export const errnoCode = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? 'error';

/**
 * The system's words for a failed file operation: `operation not permitted` from Node's
 * `EPERM: operation not permitted, unlink '/data/warcs/7/a.warc.gz'`, without the code, the call and
 * the path (an absolute path of the server's, which a page is not to show); another error's message whole.
 */
export function errnoMessage(err: unknown): string {
  const { code, syscall, message } = err as NodeJS.ErrnoException;
  const text = typeof message === 'string' ? message : String(err);
  if (!code || !syscall || !text.startsWith(`${code}: `)) return text;
  const end = text.indexOf(`, ${syscall}`, code.length + 2);
  return end > 0 ? text.slice(code.length + 2, end) : text;
}

/** A file or folder to remove; `folder` ones after everything in them. */
export interface FolderEntry {
  path: string;
  folder: boolean;
}

/**
 * Everything under `dir` and `dir` itself, each folder after its contents, names in order; links
 * are entries, never followed (`dir` itself must not be one: its caller checks). A `dir` that is not
 * there is no error; one that cannot be read throws.
 */
export function folderEntries(dir: string): FolderEntry[] {
  const out: FolderEntry[] = [];
  let names: Dirent[] = [];
  try {
    names = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw err;
  }
  for (const d of names) {
    const path = join(dir, d.name);
    if (d.isDirectory()) out.push(...folderEntries(path));
    else out.push({ path, folder: false });
  }
  out.push({ path: dir, folder: true });
  return out;
}

/**
 * Removes `entries` in order, adding each file removed (relative to `dataDir`) to `removed`; the
 * first that could not be removed (relative to `dataDir`, with its code and the system's words for
 * it), or null. ENOENT: gone already.
 * rmSync's own report of an immutable file was "ENOTDIR: not a directory, scandir" (Node 20): the
 * code here is the one its unlink met.
 */
export function removeEntries(entries: readonly FolderEntry[], removed: string[], dataDir: string): { path: string; code: string; message: string } | null {
  for (const entry of entries) {
    try {
      if (entry.folder) rmdirSync(entry.path);
      else unlinkSync(entry.path);
      if (!entry.folder) removed.push(relative(dataDir, entry.path));
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') return { path: relative(dataDir, entry.path), code: errnoCode(err), message: errnoMessage(err) };
    }
  }
  return null;
}
