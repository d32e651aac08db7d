import type Database from 'better-sqlite3';
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInTransaction } from './sqlite';

/** Prisma's own bookkeeping table, so `prisma migrate deploy` agrees with what we applied. */
const PRISMA_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/**
 * Migrations renamed after a version had been released with them under their first name, their SQL
 * unchanged (each to put it in its place in the order): old name → new name. A database that recorded
 * the old name holds what the new one makes, and running it again failed (an index or column that
 * already exists), so that database no longer opened.
 */
export const RENAMED_MIGRATIONS: Readonly<Record<string, string>> = {
  '20261129020000_crawl_list_index': '20261129100000_crawl_list_index',
  '20261129120000_export_cancel': '20261129130000_export_cancel',
};

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/** The repository's prisma/migrations, found from this file rather than the current folder. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/**
 * Lists `prisma/migrations/<stamp>_<name>/migration.sql` in order. A folder that is missing or holds
 * none is an error: applying nothing would leave a database without tables, failing later and far away.
 */
export function readMigrations(migrationsDir: string): MigrationFile[] {
  if (!existsSync(migrationsDir)) throw new Error(`The database migrations are missing: no folder ${migrationsDir}`);
  const migrations = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(migrationsDir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(migrationsDir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
  if (!migrations.length) throw new Error(`The database migrations are missing: no migration.sql under ${migrationsDir}`);
  return migrations;
}

/**
 * Records a migration applied under its old name (RENAMED_MIGRATIONS) under its new one, as Prisma
 * would have recorded it, so it is not run again and `prisma migrate status` finds it in the folder.
 * The checksum stays: the SQL was not changed, and applyMigrations still compares it.
 */
function recordRenames(db: Database.Database): void {
  const rename = db.prepare(
    'UPDATE _prisma_migrations SET migration_name = ? WHERE migration_name = ? AND NOT EXISTS (SELECT 1 FROM _prisma_migrations WHERE migration_name = ?)',
  );
  runInTransaction(db, () => {
    for (const [oldName, newName] of Object.entries(RENAMED_MIGRATIONS)) rename.run(newName, oldName, newName);
  });
}

/**
 * Applies pending migrations, each in its own transaction, recording them as Prisma does.
 * Refuses to go on if an applied migration's file changed (its checksum differs), like Prisma.
 * Returns the names applied now (empty on an up-to-date database).
 */
export function applyMigrations(db: Database.Database, migrationsDir: string): string[] {
  db.exec(PRISMA_MIGRATIONS_TABLE);
  recordRenames(db);
  const applied = new Map(
    (db.prepare('SELECT migration_name, checksum FROM _prisma_migrations WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL').all() as {
      migration_name: string;
      checksum: string;
    }[]).map((r) => [r.migration_name, r.checksum]),
  );
  const done: string[] = [];
  for (const migration of readMigrations(migrationsDir)) {
    const previous = applied.get(migration.name);
    if (previous !== undefined) {
      if (previous !== migration.checksum) {
        throw new Error(`Migration ${migration.name} was changed after it was applied (checksum differs); add a new migration instead.`);
      }
      continue;
    }
    const startedAt = new Date().toISOString();
    runInTransaction(db, () => {
      db.exec(migration.sql);
      db.prepare(
        'INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count) VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)',
      ).run(randomUUID(), migration.checksum, new Date().toISOString(), migration.name, startedAt);
    });
    done.push(migration.name);
  }
  return done;
}
