// Runs the test suite with Node's own runner (through tsx for TypeScript).
// Usage: node scripts/run-tests.mjs [unit|integration|e2e ...]
// Node 20's `--test` takes no globs, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const layers = process.argv.slice(2).length ? process.argv.slice(2) : ['unit', 'integration', 'e2e'];

function testFiles(dir) {
  let out = [];
  let entries;
  try { entries = readdirSync(dir); } catch { return out; }
  for (const name of entries.sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(testFiles(path));
    else if (/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

let failed = false;
let passed = 0;
let failures = 0;
const tapDir = mkdtempSync(join(tmpdir(), 'tidemark-tests-'));
// The tests' own temporary folders (data folders of test cockpits, WARC files, browser profiles)
// go under one folder, removed when every test passed, kept to look into when one failed.
const testTmp = join(tapDir, 'tmp');
mkdirSync(testTmp);
for (const layer of layers) {
  const files = testFiles(join('test', layer));
  if (!files.length) continue;
  console.log(`\n# ${layer}: ${files.length} files`);
  // Two files at a time in every layer: integration and browser tests spend most of their time
  // waiting (politeness delays, timers, a cockpit's real minute), so a second file fills the idle
  // core. Each file is its own process, with its own servers on free ports and its own data folder.
  // TIDEMARK_TEST_CONCURRENCY overrides it (1 runs the files one by one, to look into a failure).
  const concurrency = process.env.TIDEMARK_TEST_CONCURRENCY ?? '2';
  const tap = join(tapDir, `${layer}.tap`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`,
      '--test-reporter=spec', '--test-reporter-destination=stdout',
      '--test-reporter=tap', `--test-reporter-destination=${tap}`, ...files],
    { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', TMPDIR: testTmp } },
  );
  if (result.status !== 0) failed = true;
  const summary = readFileSync(tap, 'utf8');
  passed += Number(/^# pass (\d+)/m.exec(summary)?.[1] ?? 0);
  failures += Number(/^# fail (\d+)/m.exec(summary)?.[1] ?? 0);
}
if (failed && failures === 0) failures = 1; // a crashed runner counts as a failure
console.log(`\n${passed} passed, ${failures} failed`);
if (failed) console.log(`The tests' temporary files are kept in ${testTmp}`);
else rmSync(tapDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
