import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureBundle } from '../../../scripts/server-bundle.mjs';
import { withTempDir } from '../../support/temp-dir';

// Spelt in two parts: this test is compiled by the same plugin, which would rewrite the fixture's text.
const META = ['import', 'meta'].join('.');

/** A small project: two entries sharing a module that reads its own location, and a plain-JS module doing the same. */
function writeProject(root: string, greeting: string): void {
  const files: Record<string, string> = {
    'src/shared.ts': `export const where = (): string => ${META}.dirname;\nexport const greeting: string = ${JSON.stringify(greeting)};\n`,
    'src/located.mjs': `export const file = ${META}.filename;\n`,
    'src/a.ts': `import { greeting, where } from './shared';\nimport { file } from './located.mjs';\nconsole.log(JSON.stringify({ greeting, where: where(), file }));\n`,
    'src/b.ts': `import { greeting } from './shared';\nconsole.log(greeting + '!');\n`,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const entries = { a: 'src/a.ts', b: 'src/b.ts' };
const run = (file: string) => execFileSync(process.execPath, [file], { encoding: 'utf8' }).trim();
const builds = (cacheDir: string) => readdirSync(cacheDir).filter((f) => !f.startsWith('.') && f !== 'current.json');

test('the compiled entries run, each module still naming its own source location; unchanged sources reuse the build, a change makes a new one beside it', { timeout: 120_000 }, async () => {
  await withTempDir('tm-bundle-', async (root) => {
    writeProject(root, 'hello');
    const cacheDir = join(root, 'cache');
    const first = await ensureBundle({ root, entries, cacheDir });
    assert.deepEqual(JSON.parse(run(first.a)), { greeting: 'hello', where: join(root, 'src'), file: join(root, 'src/located.mjs') });
    assert.equal(run(first.b), 'hello!');
    assert.equal(dirname(first.a), dirname(first.b), 'one folder per build');

    // Reused: same files, not written again.
    const stamp = new Date(2000, 0, 1);
    utimesSync(first.a, stamp, stamp);
    const again = await ensureBundle({ root, entries, cacheDir });
    assert.deepEqual(again, first);
    assert.equal(statSync(first.a).mtimeMs, stamp.getTime(), 'the fresh build was not written again');

    // A source changed (contents, not times): a new build in a folder of its own; the old one stays for a running process.
    writeProject(root, 'bonjour');
    const changed = await ensureBundle({ root, entries, cacheDir });
    assert.notEqual(dirname(changed.a), dirname(first.a));
    assert.equal(run(changed.b), 'bonjour!');
    assert.equal(run(first.b), 'hello!');
    assert.equal(builds(cacheDir).length, 2);
  });
});

test('builds past the newest few are removed, and a build whose files are gone is made again', { timeout: 120_000 }, async () => {
  await withTempDir('tm-bundle-', async (root) => {
    const cacheDir = join(root, 'cache');
    const made: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      writeProject(root, `version ${i}`);
      made.push(dirname((await ensureBundle({ root, entries, cacheDir })).a));
    }
    // The current build and three before it.
    assert.deepEqual(builds(cacheDir).sort(), made.slice(2).map((d) => d.split('/').pop()).sort());
    rmSync(made[5], { recursive: true });
    const rebuilt = await ensureBundle({ root, entries, cacheDir });
    assert.equal(dirname(rebuilt.a), made[5], 'the same sources, the same folder');
    assert.equal(run(rebuilt.b), 'version 5!');
  });
});

test('two builds of the same sources at once both give a whole build, and leave no half-built folder', { timeout: 120_000 }, async () => {
  await withTempDir('tm-bundle-', async (root) => {
    writeProject(root, 'together');
    const cacheDir = join(root, 'cache');
    const [x, y] = await Promise.all([ensureBundle({ root, entries, cacheDir }), ensureBundle({ root, entries, cacheDir })]);
    assert.deepEqual(x, y);
    assert.equal(run(x.b), 'together!');
    assert.deepEqual(readdirSync(cacheDir).filter((f) => f.startsWith('.build-')), [], 'no half-built folder left');
  });
});
