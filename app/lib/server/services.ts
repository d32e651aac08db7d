import type Database from 'better-sqlite3';
import { loadEnv, type Env } from '../../../worker/config/env';
import { openSqlite } from '../../../worker/store/sqlite';
import { createPrismaClient, type PrismaClient } from '../../../worker/store/prisma';
import { SessionStore } from '../../../worker/auth/sessions';

export interface Services {
  env: Readonly<Env>;
  /** The SQLite driver: sessions and the few queries Prisma cannot express well. */
  db: Database.Database;
  prisma: PrismaClient;
  sessions: SessionStore;
}

// Next may load a route module more than once (one bundle per route): keep one set per process.
const holder = globalThis as typeof globalThis & { __tidemarkServices?: Services };

/** The server process's database handles, opened on first use (server.ts migrated the DB already). */
export function services(): Services {
  if (!holder.__tidemarkServices) {
    const env = loadEnv();
    const db = openSqlite(env.dbPath);
    holder.__tidemarkServices = { env, db, prisma: createPrismaClient(env.dbPath), sessions: new SessionStore(db, env.TIDEMARK_SESSION_HOURS) };
  }
  return holder.__tidemarkServices;
}
