/**
 * `npm start`: builds what is missing (Prisma client, the Next.js production build), then runs
 * server.ts, which applies pending migrations and starts the cockpit, demo site and worker.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureNextBuild } from './next-build';

/** The repository, whatever the current folder. */
const ROOT = resolve(import.meta.dirname, '..');

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`tidemark: "${command} ${args.join(' ')}" failed`);
    process.exit(result.status ?? 1);
  }
}

if (!existsSync(join(ROOT, 'generated/prisma/client.ts'))) run(process.execPath, [join(ROOT, 'scripts/prisma-generate.mjs')]);
try {
  await ensureNextBuild();
} catch (err) {
  console.error(`tidemark: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
await import('../server');
