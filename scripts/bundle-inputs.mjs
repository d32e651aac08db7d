// What decides whether a cached esbuild bundle is still the sources' (the CLI's, bin/tidemark.js, and
// the cockpit server's, scripts/server-bundle.mjs): a digest of the files it was built from, by
// contents rather than times (snapshots of the repository keep old mtimes).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The files whose contents decide a bundle, given the files it bundled (relative to the root): each
 * source file, and for a bundled package its package.json (its version), not its hundreds of files —
 * hashing those took ~15 ms of each start.
 */
export function digestInputs(bundled) {
  const packageJson = (f) => f.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//)?.[1] + '/package.json';
  return [...new Set(bundled.map((f) => (f.includes('node_modules/') ? packageJson(f) : f)))];
}

/** Digest of `files` under `root`; `contents` may hold texts already read (by path relative to the root). */
export function digestOf(root, files, contents = new Map()) {
  const hash = createHash('sha1');
  for (const f of files) hash.update(f).update('\0').update(contents.get(f) ?? readFileSync(join(root, f))).update('\0');
  return hash.digest('hex');
}
