import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from '../../generated/prisma/client';

export type { PrismaClient };

/** A Prisma client over the SQLite file through the better-sqlite3 driver adapter (no engines). */
export function createPrismaClient(dbPath: string): PrismaClient {
  // timeout = SQLite busy timeout: wait for the worker's write transactions instead of failing.
  const adapter = new PrismaBetterSqlite3({ url: `file:${dbPath}`, timeout: 10_000 });
  return new PrismaClient({ adapter });
}
