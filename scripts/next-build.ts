/**
 * Builds the cockpit (`next build`) when the production build is missing or older than its
 * sources. Used by `npm start` and by the tests; a lock directory keeps concurrent callers (two
 * test files, a test and a developer) from building into the same `.next` at once.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository, whatever the current folder. */
const ROOT = resolve(import.meta.dirname, '..');
const BUILD_ID = join(ROOT, '.next/BUILD_ID');
const LOCK_DIR = join(ROOT, '.next-build.lock');
const LOCK_STALE_MS = 15 * 60_000;
const SOURCES = ['app', 'worker', 'public', 'next.config.js', 'postcss.config.mjs', 'package-lock.json', 'tsconfig.json'].map((p) => join(ROOT, p));

/** Newest modification time of the files under `paths`. */
export function newestSource(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

export function nextBuildIsStale(): boolean {
  return !existsSync(BUILD_ID) || statSync(BUILD_ID).mtimeMs < newestSource(SOURCES);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function acquireLock(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      return;
    } catch {
      // A lock left by a killed build is taken over once it is old.
      if (existsSync(LOCK_DIR) && Date.now() - statSync(LOCK_DIR).mtimeMs > LOCK_STALE_MS) rmSync(LOCK_DIR, { recursive: true, force: true });
      await sleep(500);
    }
  }
}

/** Runs `next build` if the build is stale; throws when the build fails. */
export async function ensureNextBuild(log: (line: string) => void = console.log): Promise<void> {
  if (!nextBuildIsStale()) return;
  await acquireLock();
  try {
    if (!nextBuildIsStale()) return; // someone else built it while we waited
    log('tidemark: building the cockpit (next build)…');
    const result = spawnSync('npx', ['--no-install', 'next', 'build'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    if (result.status !== 0) throw new Error('next build failed');
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}
