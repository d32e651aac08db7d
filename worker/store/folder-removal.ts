import { readdirSync, rmdirSync, unlinkSync, type Dirent } from 'node:fs';
import { join, relative } from 'node:path';

/** The system's code of a failed file operation (EPERM, EBUSY …), or 'error' for anything else. */
export const errnoCode = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? 'error';

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
 * first that could not be removed (relative to `dataDir`, with its code), or null. ENOENT: gone already.
 * rmSync's own report of an immutable file was "ENOTDIR: not a directory, scandir" (Node 20): the
 * code here is the one its unlink met.
 */
export function removeEntries(entries: readonly FolderEntry[], removed: string[], dataDir: string): { path: string; code: string } | null {
  for (const entry of entries) {
    try {
      if (entry.folder) rmdirSync(entry.path);
      else unlinkSync(entry.path);
      if (!entry.folder) removed.push(relative(dataDir, entry.path));
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') return { path: relative(dataDir, entry.path), code: errnoCode(err) };
    }
  }
  return null;
}
