import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { Prisma, PrismaClient } from '../../generated/prisma/client';

export type { PrismaClient };

/** A Prisma client over the SQLite file through the better-sqlite3 driver adapter (no engines). */
export function createPrismaClient(dbPath: string): PrismaClient {
  // timeout = SQLite busy timeout: wait for the worker's write transactions instead of failing.
  const adapter = new PrismaBetterSqlite3({ url: `file:${dbPath}`, timeout: 10_000 });
  return new PrismaClient({ adapter });
}

/**
 * Whether a Prisma write failed on a unique constraint (P2002). A check before a write leaves a
 * gap: two requests that both found no row both write, and the loser must be told of the conflict
 * as a later request would be, not see an internal error.
 */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}
