/**
 * What `npm start` runs (scripts/start.mjs, compiled): builds the cockpit (the Next.js production
 * build) when it is missing or stale, then runs server.ts, which applies pending migrations and
 * starts the cockpit, demo site and worker.
 */
import { ensureNextBuild } from './next-build';

try {
  await ensureNextBuild();
} catch (err) {
  console.error(`tidemark: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
await import('../server');
