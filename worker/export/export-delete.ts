import type Database from 'better-sqlite3';
import { accessSync, constants, existsSync, lstatSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { exportDir, isInside } from '../store/data-layout';
import { errnoCode, folderEntries, removeEntries } from '../store/folder-removal';
import { onRowInWriteTransaction } from '../store/sqlite';
import { exportDeleteRefusal } from '../process/crawl-control';
import type { CrawlRequestOutcome } from '../process/crawl-requests';

/**
 * What a delete came to: done, refused (409, why), no such export (404), or `failed` (a file could
 * not be removed: the row is kept, and says what was removed already).
 */
export type ExportDeleteOutcome = CrawlRequestOutcome<{ id: number }> | { failed: string };

type FolderRemoval = { removed: string[] } | { refused: string } | { failed: string; removed: string[] };

/**
 * Deletes an export that has ended (done, failed or cancelled): its own folder under the exports
 * folder first, then its row. Nothing outside the exports folder is touched: the folder is not
 * followed when it is a symbolic link (refused), links inside it are removed as links, and an export
 * made before exports kept their own folder, which listed the crawl's files, loses only its row.
 * A file that cannot be removed stops the delete: the row is kept, its `files` cut to those still
 * there and its `error` saying what was removed and what was not.
 */
export function deleteExport(db: Database.Database, dataDir: string, exportId: number): ExportDeleteOutcome {
  const status = db.prepare('SELECT status FROM Export WHERE id = ?').pluck().get(exportId) as string | undefined;
  if (status === undefined) return 'missing';
  const refusal = exportDeleteRefusal(status);
  if (refusal) return { refused: refusal };
  const removal = removeExportFolder(dataDir, exportId);
  if ('refused' in removal) return { refused: removal.refused };
  if ('failed' in removal) {
    if (removal.removed.length) recordPartialDelete(db, exportDir(dataDir, exportId), exportId, removal.failed);
    return { failed: removal.failed };
  }
  // An ended export does not start again; checked once more in the write that deletes the row all the same.
  return onRowInWriteTransaction(
    db,
    () => db.prepare('SELECT status FROM Export WHERE id = ?').pluck().get(exportId) as string | undefined,
    (now): CrawlRequestOutcome<{ id: number }> => {
      const late = exportDeleteRefusal(now);
      if (late) return { refused: late };
      db.prepare('DELETE FROM Export WHERE id = ?').run(exportId);
      return { done: { id: exportId } };
    },
  );
}

/** The row of an export whose delete stopped half-way: it lists only the files still there, and says why. */
function recordPartialDelete(db: Database.Database, dir: string, exportId: number, reason: string): void {
  const listed = db.prepare('SELECT files FROM Export WHERE id = ?').pluck().get(exportId) as string | undefined;
  let files: unknown;
  try {
    files = JSON.parse(listed ?? '[]');
  } catch {
    files = null;
  }
  // A list that is not one (a hand-edited row) is left as it is: the error still says what was removed.
  const left = Array.isArray(files) ? files.filter((f: { name?: unknown } | null) => typeof f?.name === 'string' && existsSync(join(dir, f.name))) : null;
  db.prepare('UPDATE Export SET files = coalesce(?, files), error = ? WHERE id = ?').run(left && JSON.stringify(left), `Delete stopped: ${reason}`, exportId);
}

/**
 * Removes `exports/<id>` under `dataDir` and everything in it, never following a symbolic link.
 * Writable folders are checked before anything is removed, so a permission problem removes nothing;
 * a failure past that (an immutable file, a busy one) is reported with what was removed before it.
 * A folder the worker is still emptying (an export cancelled a moment ago) is walked again.
 */
function removeExportFolder(dataDir: string, exportId: number): FolderRemoval {
  const root = join(dataDir, 'exports');
  const dir = exportDir(dataDir, exportId);
  const shown = (path: string) => relative(dataDir, path);
  let stat;
  try {
    stat = lstatSync(dir);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return { removed: [] };
    return { failed: `${shown(dir)} could not be read (${errnoCode(err)}): nothing was removed`, removed: [] };
  }
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    const what = stat.isSymbolicLink() ? `a symbolic link (to ${readlinkSync(dir)})` : 'not a folder';
    return { refused: `${shown(dir)} is ${what}, not the export's own folder: Tidemark removes nothing outside its exports folder. Nothing was removed and the export is kept` };
  }
  const removed: string[] = [];
  for (let attempt = 1; ; attempt++) {
    let entries;
    try {
      entries = folderEntries(dir);
    } catch (err) {
      return { failed: `${shown(dir)} could not be read (${errnoCode(err)}): nothing ${removed.length ? 'more ' : ''}was removed`, removed };
    }
    if (!entries.every((e) => isInside(root, e.path))) return { refused: `${shown(dir)} holds a path outside the exports folder: nothing was removed` };
    for (const folder of entries.filter((e) => e.folder)) {
      try {
        accessSync(folder.path, constants.W_OK | constants.X_OK);
      } catch (err) {
        return { failed: `${shown(folder.path)} may not be changed (${errnoCode(err)}), so its files cannot be removed: nothing ${removed.length ? 'more ' : ''}was removed`, removed };
      }
    }
    const failure = removeEntries(entries, removed, dataDir);
    if (!failure) return { removed };
    if (failure.code !== 'ENOTEMPTY' || attempt === 3) {
      const done = removed.length ? `${removed.length} file${removed.length === 1 ? '' : 's'} had been removed before it (${removed.slice(0, 5).join(', ')}${removed.length > 5 ? ', …' : ''})` : 'nothing was removed';
      return { failed: `${failure.path} could not be removed (${failure.code}): ${done}; delete the export again once it can be`, removed };
    }
  }
}

/**
 * Of the folders under the exports folder (`names`), the export ids whose folder nothing will
 * clean up: no row (the export was deleted while a worker that died was still writing it) or a
 * cancelled one (cancelled while it ran, and its worker died before removing what it wrote).
 * Names that are not an export id are not Tidemark's: left alone.
 */
export function leftoverExportIds(names: readonly string[], statusOf: (id: number) => string | undefined): number[] {
  return names.filter((n) => /^[1-9]\d*$/.test(n)).map(Number).filter((id) => {
    const status = statusOf(id);
    return status === undefined || status === 'cancelled';
  });
}

/**
 * At a worker's start: removes the folders of exports deleted or cancelled while its predecessor
 * ran them, which died before removing what it had written (leftoverExportIds). Folders only, never
 * followed through a link. Returns the ids removed; one that cannot be is reported and left.
 */
export function removeLeftoverExportFolders(db: Database.Database, dataDir: string): number[] {
  const root = join(dataDir, 'exports');
  let folders: string[];
  try {
    folders = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') console.error(`tidemark worker: ${root} could not be read (${errnoCode(err)}): left-over export folders stay`);
    return [];
  }
  const status = db.prepare('SELECT status FROM Export WHERE id = ?').pluck();
  const removed: number[] = [];
  for (const id of leftoverExportIds(folders, (i) => status.get(i) as string | undefined)) {
    try {
      rmSync(exportDir(dataDir, id), { recursive: true, force: true });
      removed.push(id);
    } catch (err) {
      console.error(`tidemark worker: the left-over folder of export ${id} could not be removed (${errnoCode(err)})`);
    }
  }
  return removed;
}
