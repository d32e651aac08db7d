// The cockpit's processes compiled before they start: the server (server.ts, and `npm start`'s
// scripts/start.ts), the crawl worker (worker/process/worker-main.ts) and its analysis thread, bundled
// by esbuild (tsx's own compiler) into ES modules that share chunks, packages left to Node. Loading
// their ~470 modules one by one through tsx's loader cost every start ~1.5 s more CPU in the server
// and ~1.2 s more in the worker (4.6 against 3.1 s, and 2.4 against 1.2 s, up to the worker's start).
// Each build has a folder of its own, named by the digest of its inputs, so a running cockpit's
// worker restarts from its own build while a newer one is made beside it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceLocation } from './source-location.mjs';
import { digestOf } from './bundle-inputs.mjs';

/** The repository's root, from this file's own location (kept when bundled: scripts/source-location.mjs); scripts/start.mjs uses it too. */
export const REPOSITORY_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** What the cockpit runs, by name (each compiled file keeps its source's base name: outputName). */
export const SERVER_ENTRIES = {
  server: 'server.ts',
  start: 'scripts/start.ts',
  worker: 'worker/process/worker-main.ts',
  analysisThread: 'worker/crawler/analysis-thread.ts',
};

/** Builds kept besides the current one (a cockpit started before a rebuild may still restart its worker from its own). */
const KEPT_BUILDS = 3;
/** A build folder left by a killed build is removed once it is this old. */
const ABANDONED_BUILD_MS = 60 * 60_000;
/** This file and the plugin's decide the output as much as the sources do. */
const BUILD_SCRIPTS = ['scripts/server-bundle.mjs', 'scripts/source-location.mjs', 'scripts/bundle-inputs.mjs'];

/** A compiled file keeps its source's name (worker-main.mjs: what process listings and bench/soak.ts look for). */
const outputName = (file) => basename(file).replace(/\.[cm]?tsx?$/, '');
const outputsIn = (dir, entries) => Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(dir, `${outputName(file)}.mjs`)]));

/** The compiled files of the last build, if its inputs are unchanged and its files are all there. */
function freshBuild(root, entries, cacheDir) {
  try {
    const { inputs, digest } = JSON.parse(readFileSync(join(cacheDir, 'current.json'), 'utf8'));
    const outputs = outputsIn(join(cacheDir, digest), entries);
    if (Object.values(outputs).every((f) => existsSync(f)) && digestOf(root, inputs) === digest) return outputs;
  } catch {
    // no build yet, or a source file deleted since: build
  }
  return null;
}

/** Removes all but the newest builds, and folders of builds that never finished. */
function pruneBuilds(cacheDir, current) {
  const now = Date.now();
  const folders = readdirSync(cacheDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => ({ name: d.name, mtimeMs: statSync(join(cacheDir, d.name)).mtimeMs }));
  const builds = folders.filter((f) => !f.name.startsWith('.') && f.name !== current).sort((a, b) => b.mtimeMs - a.mtimeMs);
  const abandoned = folders.filter((f) => f.name.startsWith('.build-') && now - f.mtimeMs > ABANDONED_BUILD_MS);
  for (const f of [...builds.slice(KEPT_BUILDS), ...abandoned]) rmSync(join(cacheDir, f.name), { recursive: true, force: true });
}

async function buildInto(root, entries, cacheDir) {
  const { build } = await import('esbuild');
  mkdirSync(cacheDir, { recursive: true });
  const tmp = mkdtempSync(join(cacheDir, '.build-'));
  try {
    const read = new Map();
    const result = await build({
      entryPoints: Object.fromEntries(Object.values(entries).map((file) => [outputName(file), join(root, file)])),
      absWorkingDir: root, outdir: tmp, bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20',
      packages: 'external', keepNames: true, sourcemap: 'linked', sourcesContent: false, outExtension: { '.js': '.mjs' },
      metafile: true, logLevel: 'silent', plugins: [sourceLocation(root, 'esm', read)],
    });
    const ownScripts = BUILD_SCRIPTS.filter((f) => existsSync(join(root, f)));
    const inputs = [...new Set([...ownScripts, ...Object.keys(result.metafile.inputs)])];
    const digest = digestOf(root, inputs, read);
    const dir = join(cacheDir, digest);
    try {
      renameSync(tmp, dir);
    } catch (err) {
      // Another process built the same sources meanwhile: its folder is as good.
      if (!existsSync(dir)) throw err;
      rmSync(tmp, { recursive: true, force: true });
    }
    const manifest = join(cacheDir, 'current.json');
    writeFileSync(`${manifest}.${process.pid}`, JSON.stringify({ inputs, digest }));
    renameSync(`${manifest}.${process.pid}`, manifest);
    pruneBuilds(cacheDir, digest);
    return outputsIn(dir, entries);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

/**
 * The compiled files of `entries` (name → source file relative to `root`), under `cacheDir`: the
 * last build when its sources are unchanged, else a new one. Throws when esbuild fails or the
 * folder cannot be written.
 */
export async function ensureBundle({ root, entries, cacheDir }) {
  return freshBuild(root, entries, cacheDir) ?? buildInto(root, entries, cacheDir);
}

/** The cockpit's compiled files (SERVER_ENTRIES), in node_modules/.cache/tidemark-server (one folder per source tree). */
export function ensureServerBundle(root = REPOSITORY_ROOT) {
  const tree = createHash('sha1').update(root).digest('hex').slice(0, 12);
  return ensureBundle({ root, entries: SERVER_ENTRIES, cacheDir: join(root, 'node_modules/.cache/tidemark-server', tree) });
}

/** The environment that makes the compiled server fork the compiled worker, and the worker start the compiled thread. */
export const serverBundleEnv = (bundle) => ({ TIDEMARK_WORKER_ENTRY: bundle.worker, TIDEMARK_ANALYSIS_THREAD_ENTRY: bundle.analysisThread });
