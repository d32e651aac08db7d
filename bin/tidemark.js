#!/usr/bin/env node
// Entry point of `npx tidemark`. Runs the TypeScript worker code, and the pure-JS packages it uses,
// compiled into one ES module by esbuild (tsx's own compiler), cached in node_modules/.cache/tidemark
// and rebuilt whenever one of its source files or package versions changed: start-up takes ~0.8 s
// less CPU and ~45 MB less memory than loading every file through tsx. If the bundle cannot be built
// or stored, tsx runs the sources as is (as it does when TIDEMARK_NO_BUNDLE=1).
// Stack traces name the bundle's lines; NODE_OPTIONS=--enable-source-maps maps them to the .ts
// sources (not on by default: reading the map cost ~0.15 s of every start).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'worker/cli/main.ts');
// The focused-analysis thread's entry (worker/crawler/analysis-client.ts), bundled alongside.
const threadEntry = join(root, 'worker/crawler/analysis-thread.ts');
// One cache per source tree: snapshots of other commits may share this node_modules (a symlink).
const cacheDir = join(root, 'node_modules/.cache/tidemark', createHash('sha1').update(root).digest('hex').slice(0, 12));
const bundle = join(cacheDir, 'cli.mjs');
const threadBundle = join(cacheDir, 'analysis-thread.mjs');
const manifest = join(cacheDir, 'cli.inputs.json');

/**
 * The files whose contents decide the bundle: each source file, and for a bundled package its
 * package.json (its version), not its hundreds of files — hashing those took ~15 ms of each start.
 */
function digestInputs(bundled) {
  const packageJson = (f) => f.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//)?.[1] + '/package.json';
  return [...new Set(bundled.map((f) => (f.includes('node_modules/') ? packageJson(f) : f)))];
}

/** Digest of the files a bundle was built from (contents, not times: snapshots keep old mtimes). */
function digestOf(files, contents = new Map()) {
  const hash = createHash('sha1');
  for (const f of files) hash.update(f).update('\0').update(contents.get(f) ?? readFileSync(join(root, f))).update('\0');
  return hash.digest('hex');
}

/** True when the cached bundle was built from the current sources (and this file). */
function bundleIsFresh() {
  try {
    const { inputs, digest } = JSON.parse(readFileSync(manifest, 'utf8'));
    return existsSync(bundle) && existsSync(threadBundle) && digestOf(inputs) === digest;
  } catch {
    return false; // missing bundle, manifest or source (deleted file): rebuild
  }
}

const NATIVE_PACKAGES = ['better-sqlite3', 'libdeflate'];
// CommonJS code bundled into an ES module still calls require() for Node's built-ins.
const REQUIRE_SHIM = "import { createRequire as __tidemarkRequire } from 'node:module'; const require = __tidemarkRequire(import.meta.url);";

async function buildBundle() {
  const { build } = await import('esbuild');
  const read = new Map();
  const result = await build({
    entryPoints: { cli: entry, 'analysis-thread': threadEntry }, bundle: true, platform: 'node', format: 'esm', target: 'node20',
    // Pure-JS packages are bundled too: loading each through Node's ES-module loader (resolution, and a
    // CommonJS export scan per file) took ~0.25 s of every start. Only packages with native or WASM
    // files next to their code stay outside.
    external: NATIVE_PACKAGES, banner: { js: REQUIRE_SHIM }, write: false, outdir: cacheDir, outExtension: { '.js': '.mjs' }, sourcemap: 'linked', sourcesContent: false, metafile: true, logLevel: 'silent',
    plugins: [{
      // Each module keeps its own location: import.meta.url / dirname become the source file's.
      name: 'source-location',
      setup(b) {
        b.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
          const text = await readFile(args.path, 'utf8');
          read.set(relative(root, args.path), text); // the digest covers what was compiled
          const src = text
            .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
            .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
          return { contents: src, loader: 'ts' };
        });
      },
    }],
  });
  mkdirSync(cacheDir, { recursive: true });
  // Several CLIs may start at once: each writes its own files, then renames them into place.
  const tmp = `.${process.pid}-${Date.now()}.tmp`;
  for (const f of result.outputFiles) writeFileSync(f.path + tmp, f.contents);
  const inputs = digestInputs([relative(root, fileURLToPath(import.meta.url)), ...Object.keys(result.metafile.inputs).map((p) => relative(root, resolve(process.cwd(), p)))]);
  writeFileSync(manifest + tmp, JSON.stringify({ inputs, digest: digestOf(inputs, read) }));
  for (const f of result.outputFiles) renameSync(f.path + tmp, f.path);
  renameSync(manifest + tmp, manifest);
}

async function loadMain() {
  if (process.env.TIDEMARK_NO_BUNDLE !== '1') {
    try {
      if (!bundleIsFresh()) await buildBundle();
      if (existsSync(bundle)) {
        if (existsSync(threadBundle)) process.env.TIDEMARK_ANALYSIS_THREAD_ENTRY = threadBundle;
        return (await import(pathToFileURL(bundle).href)).main;
      }
    } catch {
      // No esbuild, read-only node_modules…: run the sources through tsx instead.
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return (await import('../worker/cli/main.ts')).main;
}

const main = await loadMain();
process.exitCode = await main(process.argv.slice(2));
