// Runs the test suite with Node's own runner.
// Usage: node scripts/run-tests.mjs [unit|integration|e2e|test file or folder ...]
// Node 20's `--test` takes no globs, so the files are listed here.
// The test files are compiled first, each with the TypeScript it imports, by esbuild (the compiler
// tsx uses), into ES modules sharing chunks: loading some 470 modules through tsx's loader thread
// cost each test process ~2.5 s more CPU, a third of the integration layer's. TIDEMARK_TEST_SOURCES=1
// runs the sources through tsx instead (stack traces then name the .ts lines; with the compiled
// tests, NODE_OPTIONS=--enable-source-maps maps them).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { build } from 'esbuild';
import { sourceLocation } from './source-location.mjs';

const LAYERS = ['unit', 'integration', 'e2e'];

function testFiles(dir) {
  let out = [];
  let entries;
  try {
    if (statSync(dir).isFile()) return [dir];
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries.sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(testFiles(path));
    else if (/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** Whether Node's ES-module loader finds `specifier` (Node 20's import.meta.resolve names a file without looking whether it is there). */
function resolves(specifier) {
  try {
    const url = new URL(import.meta.resolve(specifier));
    return url.protocol !== 'file:' || statSync(url).isFile();
  } catch {
    return false;
  }
}

/**
 * A package's file imported without its extension (`next/navigation`, in a package with no
 * `exports`): tsx finds `navigation.js`, Node's ES-module loader does not, so the compiled import
 * names the file.
 */
const extensionOfDeepImports = {
  name: 'extension-of-deep-imports',
  setup(b) {
    b.onResolve({ filter: /^(@[^/]+\/)?[^./@][^/]*\/./ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (resolves(args.path) || !resolves(`${args.path}.js`)) return undefined;
      return { path: `${args.path}.js`, external: true };
    });
  },
};

/**
 * Each test file compiled into `outDir` (paths kept under it), packages left to Node. Returns the
 * compiled file of each source file. Names are kept as tsx keeps them (`keepNames`): bundling
 * renames clashing top-level names, and code may read a class's or function's name.
 */
async function compileTests(sources, outDir) {
  const root = process.cwd();
  const result = await build({
    entryPoints: sources, outdir: outDir, outbase: root, bundle: true, splitting: true, format: 'esm',
    platform: 'node', target: 'node20', packages: 'external', keepNames: true, sourcemap: 'linked',
    outExtension: { '.js': '.mjs' }, logLevel: 'warning', metafile: true,
    plugins: [sourceLocation(root, 'esm'), extensionOfDeepImports],
  });
  const compiled = new Map();
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint) compiled.set(meta.entryPoint, out);
  }
  return sources.map((f) => compiled.get(f) ?? f);
}

/**
 * The test files to run, by layer, in the layers' order: a layer's name takes all its files, a path
 * under test/<layer>/ the files at or under it.
 */
function selectedFiles(args) {
  const byLayer = new Map();
  for (const arg of args.length ? args : LAYERS) {
    const path = LAYERS.includes(arg) ? join('test', arg) : relative(process.cwd(), resolve(arg));
    const [top, layer] = path.split(sep);
    const files = top === 'test' && LAYERS.includes(layer) ? testFiles(path) : [];
    if (!files.length) {
      console.error(`run-tests: ${arg} is neither a layer (${LAYERS.join(', ')}) nor a test file or folder under test/<layer>/`);
      process.exit(2);
    }
    byLayer.set(layer, [...new Set([...(byLayer.get(layer) ?? []), ...files])]);
  }
  return LAYERS.filter((l) => byLayer.has(l)).map((layer) => ({ layer, sources: byLayer.get(layer) }));
}

/** What scripts/test-file-times.mjs wrote of a layer's run: each file's time, and the counts. */
function readReport(reportFile) {
  let lines = [];
  try {
    lines = readFileSync(reportFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  } catch {
    // a crashed runner wrote none
  }
  return { files: lines.filter((l) => 'file' in l), counts: lines.find((l) => 'counts' in l)?.counts ?? {} };
}

/** The layer's five slowest files: where to look first when the suite grows slower. */
function printSlowestFiles(layer, files) {
  if (!files.length) return;
  console.log(`# ${layer}: slowest files`);
  for (const { file, ms } of [...files].sort((a, b) => b.ms - a.ms).slice(0, 5)) {
    const name = file.replace(/^file:\/\//, '').replace(/^.*tidemark-tests[\\/]\d+[\\/][a-z0-9]+[\\/]/, '').replace(/\.mjs$/, '.ts');
    console.log(`#   ${(ms / 1000).toFixed(1).padStart(6)} s  ${relative(process.cwd(), name)}`);
  }
}

const selection = selectedFiles(process.argv.slice(2));

let failed = false;
let passed = 0;
let failures = 0;
const reportDir = mkdtempSync(join(tmpdir(), 'tidemark-tests-'));
// The tests' own temporary folders (data folders of test cockpits, WARC files, browser profiles)
// go under one folder, removed when every test passed, kept to look into when one failed.
const testTmp = join(reportDir, 'tmp');
mkdirSync(testTmp);
const fromSources = process.env.TIDEMARK_TEST_SOURCES === '1';
// Inside node_modules, so that the compiled tests find the packages as the sources do.
const compiledDir = join('node_modules', '.cache', 'tidemark-tests', String(process.pid));
for (const { layer, sources } of selection) {
  const files = fromSources ? sources : await compileTests(sources, join(compiledDir, layer));
  console.log(`\n# ${layer}: ${files.length} files${fromSources ? ' (sources, through tsx)' : ''}`);
  // Two files at a time, three in the integration layer. Each file is its own process, with its own
  // servers on free ports and its own data folder. Compiled, the integration files spend much of
  // their time waiting (politeness delays, timers, a cockpit's real minute): 1.35 of the 2 cores
  // busy with two at a time, 1.75 with three, which took 440 s instead of 565. The browser layer
  // is CPU-bound with two (Chromium, the cockpit): three took as long, every test slower.
  // TIDEMARK_TEST_CONCURRENCY overrides it (1 runs the files one by one, to look into a failure).
  const concurrency = process.env.TIDEMARK_TEST_CONCURRENCY ?? (layer === 'integration' ? '3' : '2');
  const reportFile = join(reportDir, `${layer}.jsonl`);
  const result = spawnSync(
    process.execPath,
    [...(fromSources ? ['--import', 'tsx'] : []), '--test', `--test-concurrency=${concurrency}`,
      '--test-reporter=spec', '--test-reporter-destination=stdout',
      `--test-reporter=${new URL('./test-file-times.mjs', import.meta.url)}`, `--test-reporter-destination=${reportFile}`,
      ...files],
    { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', TMPDIR: testTmp } },
  );
  if (result.status !== 0) failed = true;
  const report = readReport(reportFile);
  printSlowestFiles(layer, report.files);
  passed += report.counts.pass ?? 0;
  failures += report.counts.fail ?? 0;
}
rmSync(compiledDir, { recursive: true, force: true });
if (failed && failures === 0) failures = 1; // a crashed runner counts as a failure
console.log(`\n${passed} passed, ${failures} failed`);
if (failed) console.log(`The tests' temporary files are kept in ${testTmp}`);
else rmSync(reportDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
