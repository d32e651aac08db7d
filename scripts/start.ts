/**
 * `npm start`: builds what is missing (Prisma client, the Next.js production build), then runs
 * server.ts, which applies pending migrations and starts the cockpit, demo site and worker.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`tidemark: "${command} ${args.join(' ')}" failed`);
    process.exit(result.status ?? 1);
  }
}

/** Newest modification time of the sources the Next build depends on. */
function newestSource(paths: string[]): number {
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

if (!existsSync('generated/prisma/client.ts')) run(process.execPath, ['scripts/prisma-generate.mjs']);
const buildId = '.next/BUILD_ID';
const stale = !existsSync(buildId) || statSync(buildId).mtimeMs < newestSource(['app', 'worker/icd', 'worker/auth', 'next.config.js', 'package-lock.json']);
if (stale) {
  console.log('tidemark: building the cockpit (next build)…');
  run('npx', ['--no-install', 'next', 'build']);
}
await import('../server');
