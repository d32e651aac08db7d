import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * The environment variables that configure the server and the worker, validated once at the entry
 * points (server.ts, the worker process, the CLI). Precedence: environment > defaults. Switches
 * read where they act (TIDEMARK_ANALYSIS_THREAD, TIDEMARK_NO_BUNDLE) are listed in the README.
 */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Folder for the database, WARC files, exports and spool files. */
  TIDEMARK_DATA_DIR: z.string().min(1).default('data'),
  /** SQLite database file; defaults to `<data dir>/tidemark.db`. */
  TIDEMARK_DB: z.string().min(1).optional(),
  /** Password for the first admin user; if unset, a one-time password is printed at first start. */
  TIDEMARK_ADMIN_PASSWORD: z.string().min(8, 'TIDEMARK_ADMIN_PASSWORD must have at least 8 characters').optional(),
  /** Port of the bundled demo web site on 127.0.0.1 (0 = don't serve it). */
  TIDEMARK_DEMO_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  /** Mark session cookies Secure (set when serving behind HTTPS). */
  TIDEMARK_SECURE_COOKIES: z.enum(['0', '1', 'true', 'false']).default('0').transform((v) => v === '1' || v === 'true'),
  /** Session lifetime in hours. */
  TIDEMARK_SESSION_HOURS: z.coerce.number().positive().default(12),
  /** Tests only: length in ms of the crawl engine's minute (feed polls, recrawl intervals, time limits). */
  TIDEMARK_TEST_MINUTE_MS: z.coerce.number().int().min(1).default(60_000),
  /**
   * Tests only: the AAH's time budget for one page, in ms (wall-clock time: on a loaded machine a
   * test's pages went over the default and were skipped as too slow to analyse). The CLI reads it too.
   */
  TIDEMARK_TEST_AAH_BUDGET_MS: z.coerce.number().int().min(1).optional(),
});

export type Env = z.output<typeof envSchema> & { dataDir: string; dbPath: string };

/** Parses the environment; throws an error listing every invalid variable. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Readonly<Env> {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  // turbopackIgnore: paths chosen at run time, not files of the build; without it `next build`
  // traced the whole project into the server's output.
  const dataDir = resolve(/*turbopackIgnore: true*/ parsed.data.TIDEMARK_DATA_DIR);
  const dbPath = resolve(/*turbopackIgnore: true*/ parsed.data.TIDEMARK_DB ?? resolve(/*turbopackIgnore: true*/ dataDir, 'tidemark.db'));
  return Object.freeze({ ...parsed.data, dataDir, dbPath });
}
