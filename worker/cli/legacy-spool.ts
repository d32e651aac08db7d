import { readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isSpoolFileName } from '../fetch/body-sink';

/**
 * The spool folder CLI crawls used in --out before it became `.tidemark-spool` (so that a user's
 * own `.spool` is not emptied). A run of such a version that was killed left the bodies it was
 * fetching there, up to `limits.maxBodyBytes` each, and no later run removed them.
 */
export const LEGACY_SPOOL_NAME = '.spool';

/**
 * Removes the spooled bodies an older Tidemark left in `out`/.spool, and the folder when that
 * empties it; any other file there is the user's and stays, with its folder. For an `out` that
 * holds a crawl already: a new crawl's folder holds no spool of ours. Returns the bytes removed.
 */
export function removeLegacySpool(out: string): number {
  const dir = join(out, LEGACY_SPOOL_NAME);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0; // none, or not a folder
  }
  let bytes = 0;
  for (const name of names.filter(isSpoolFileName)) {
    const path = join(dir, name);
    try {
      const stat = statSync(path);
      if (!stat.isFile()) continue;
      rmSync(path);
      bytes += stat.size;
    } catch {
      // gone meanwhile, or not ours to remove: left as it is
    }
  }
  if (names.every(isSpoolFileName)) {
    try {
      rmdirSync(dir);
    } catch {
      // a file of the user's came meanwhile, or a spool name that is a folder: kept
    }
  }
  return bytes;
}
