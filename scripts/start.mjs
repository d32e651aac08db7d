// `npm start`: makes the Prisma client if it is missing, compiles the cockpit's server and worker
// (scripts/server-bundle.mjs) and runs scripts/start.ts from that build; if it cannot be compiled, or
// with TIDEMARK_NO_BUNDLE=1, it runs the TypeScript sources through tsx instead. Plain JavaScript, so
// that no module of the server is loaded through tsx.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureServerBundle, REPOSITORY_ROOT, serverBundleEnv } from './server-bundle.mjs';

if (!existsSync(join(REPOSITORY_ROOT, 'generated/prisma/client.ts'))) {
  const result = spawnSync(process.execPath, [join(REPOSITORY_ROOT, 'scripts/prisma-generate.mjs')], { cwd: REPOSITORY_ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('tidemark: generating the Prisma client failed');
    process.exit(result.status ?? 1);
  }
}

async function compiledStart() {
  if (process.env.TIDEMARK_NO_BUNDLE === '1') return null;
  try {
    const bundle = await ensureServerBundle(REPOSITORY_ROOT);
    Object.assign(process.env, serverBundleEnv(bundle));
    return bundle.start;
  } catch (err) {
    console.error(`tidemark: could not compile the server (${err instanceof Error ? err.message : String(err)}); running its sources through tsx`);
    return null;
  }
}

const compiled = await compiledStart();
if (compiled) await import(pathToFileURL(compiled).href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./start.ts');
}
