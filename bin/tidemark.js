#!/usr/bin/env node
// Entry point of `npx tidemark`. Runs the TypeScript worker code, and the pure-JS packages it uses,
// compiled into one CommonJS file by esbuild (tsx's own compiler), cached in node_modules/.cache/tidemark
// with V8's compiled code and rebuilt whenever one of its source files or package versions changed:
// a 1-page crawl takes ~1 s less CPU and ~50 MB less memory than loading every file through tsx. If the
// bundle cannot be built or stored, tsx runs the sources as is (as it does when TIDEMARK_NO_BUNDLE=1).
// Stack traces name the bundle's lines; NODE_OPTIONS=--enable-source-maps maps them to the .ts
// sources (not on by default: reading the map cost ~0.15 s of every start).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import Module, { createRequire } from 'node:module';
import { Script } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REGEXP_BACKTRACK_FLAG } from '../worker/process/regexp-backtrack-flag.mjs';
import { sourceLocation } from '../scripts/source-location.mjs';
import { digestInputs, digestOf } from '../scripts/bundle-inputs.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'worker/cli/main.ts');
// The focused-analysis thread's entry (worker/crawler/analysis-client.ts), bundled alongside.
const threadEntry = join(root, 'worker/crawler/analysis-thread.ts');
// One cache per source tree: snapshots of other commits may share this node_modules (a symlink).
const cacheDir = join(root, 'node_modules/.cache/tidemark', createHash('sha1').update(root).digest('hex').slice(0, 12));
// CommonJS, so that V8 can keep its compiled code between runs (vm.Script's cachedData).
const bundle = join(cacheDir, 'cli.cjs');
const threadBundle = join(cacheDir, 'analysis-thread.mjs');
const manifest = join(cacheDir, 'cli.inputs.json');

/** True when the cached bundle was built from the current sources (and this file). */
function bundleIsFresh() {
  try {
    const { inputs, digest } = JSON.parse(readFileSync(manifest, 'utf8'));
    return existsSync(bundle) && existsSync(threadBundle) && digestOf(root, inputs) === digest;
  } catch {
    return false; // missing bundle, manifest or source (deleted file): rebuild
  }
}

const NATIVE_PACKAGES = ['better-sqlite3', 'libdeflate'];
// CommonJS code bundled into an ES module still calls require() for Node's built-ins.
const REQUIRE_SHIM = "import { createRequire as __tidemarkRequire } from 'node:module'; const require = __tidemarkRequire(import.meta.url);";
// A CommonJS bundle has no import.meta.resolve: the same answer through require.resolve.
const RESOLVE_SHIM = "const __tidemarkResolve = (specifier) => require('node:url').pathToFileURL(require.resolve(specifier)).href;";

async function buildBundle() {
  const { build } = await import('esbuild');
  const read = new Map();
  const options = (format) => ({
    bundle: true, platform: 'node', format, target: 'node20',
    // Pure-JS packages are bundled too: loading each through Node's ES-module loader (resolution, and a
    // CommonJS export scan per file) took ~0.2 s of every start. Only packages with native or WASM
    // files next to their code stay outside.
    external: NATIVE_PACKAGES, write: false, outdir: cacheDir, sourcemap: 'linked', sourcesContent: false, metafile: true, logLevel: 'silent',
    plugins: [sourceLocation(root, format, read)],
  });
  const results = await Promise.all([
    build({ ...options('cjs'), entryPoints: { cli: entry }, outExtension: { '.js': '.cjs' }, banner: { js: RESOLVE_SHIM } }),
    // The thread's entry stays an ES module: Worker threads import it.
    build({ ...options('esm'), entryPoints: { 'analysis-thread': threadEntry }, outExtension: { '.js': '.mjs' }, banner: { js: REQUIRE_SHIM } }),
  ]);
  mkdirSync(cacheDir, { recursive: true });
  // Code caches of earlier bundles (and the ES-module bundle of earlier versions) are never read again.
  for (const f of readdirSync(cacheDir)) if (/\.v8-cache$|^cli\.mjs/.test(f)) rmSync(join(cacheDir, f), { force: true });
  // Several CLIs may start at once: each writes its own files, then renames them into place.
  const tmp = `.${process.pid}-${Date.now()}.tmp`;
  const outputs = results.flatMap((r) => r.outputFiles);
  for (const f of outputs) writeFileSync(f.path + tmp, f.contents);
  const bundled = results.flatMap((r) => Object.keys(r.metafile.inputs)).map((p) => relative(root, resolve(process.cwd(), p)));
  const inputs = digestInputs([relative(root, fileURLToPath(import.meta.url)), 'scripts/source-location.mjs', 'scripts/bundle-inputs.mjs', ...bundled]);
  writeFileSync(manifest + tmp, JSON.stringify({ inputs, digest: digestOf(root, inputs, read) }));
  for (const f of outputs) renameSync(f.path + tmp, f.path);
  renameSync(manifest + tmp, manifest);
}

/**
 * Runs the bundle with V8's code cache: the bytecode of every function compiled by the end of the
 * previous run, so this one neither parses the 4 MB bundle again nor compiles those functions
 * (~40 ms less before the first capture). The cache is named by a hash of the bundle's text (~5 ms), so it is never
 * used with another bundle: V8 only checks the length. V8 refuses a cache made by another version
 * or with other flags, and it is then written afresh. Returns main, and a function that stores the
 * cache once main has run.
 */
function loadBundle() {
  // Node maps stack traces only for modules it loads itself (--enable-source-maps), not for vm scripts.
  if (process.sourceMapsEnabled) return { main: createRequire(import.meta.url)(bundle).main, storeCache: () => undefined };
  const source = readFileSync(bundle, 'utf8');
  const cachePath = join(cacheDir, `cli.${createHash('sha1').update(source).digest('hex').slice(0, 16)}.v8-cache`);
  let cachedData;
  try {
    cachedData = readFileSync(cachePath);
  } catch {
    // first run of this bundle
  }
  const script = new Script(Module.wrap(source), { filename: bundle, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, cacheDir);
  const storeCache = () => {
    if (cachedData && !script.cachedDataRejected) return;
    try {
      const tmp = `${cachePath}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cachePath);
    } catch {
      // read-only node_modules: the next run compiles again
    }
  };
  return { main: module.exports.main, storeCache };
}

async function loadMain() {
  if (process.env.TIDEMARK_NO_BUNDLE !== '1') {
    try {
      if (!bundleIsFresh()) await buildBundle();
      if (existsSync(threadBundle)) process.env.TIDEMARK_ANALYSIS_THREAD_ENTRY = threadBundle;
      return loadBundle();
    } catch {
      // No esbuild, read-only node_modules…: run the sources through tsx instead.
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return { main: (await import('../worker/cli/main.ts')).main, storeCache: () => undefined };
}

// The flag boundRegExpBacktracking (worker/process/bounded-regexp.ts) sets when the CLI starts, set here before the bundle is
// compiled: V8 keeps a code cache only for the flags it was compiled under, and a cache made after
// the flag changed was refused at every start, so every run compiled the bundle afresh and then
// serialised a new cache after its crawl (~2.5 MB, with the peak RSS of some runs 50 MB higher).
setFlagsFromString(REGEXP_BACKTRACK_FLAG);
const { main, storeCache } = await loadMain();
process.exitCode = await main(process.argv.slice(2));
// After a crawl (finished or paused), not after --help or a usage error: the cache then holds the
// crawl's functions too, not only the bundle's top level.
if (process.exitCode === 0 || process.exitCode === 3) storeCache();
