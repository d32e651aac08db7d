import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { icdSchema, type Icd } from '../../worker/icd/schema';
import { openSqlite } from '../../worker/store/sqlite';
import { applyMigrations } from '../../worker/store/migrator';
import { withTempDir } from './temp-dir';
import { insertCrawl } from './crawl-rows';

/** What a test of one crawl of a loopback site gets. */
export interface SiteCrawl {
  origin: string;
  dir: string;
  db: Database.Database;
  icd: Icd;
  crawlId: number;
}

/**
 * The ICD of `fields` for a test crawl: politeness, the AAH and the favicon of each site
 * (scope.includeFavicon) off unless they say otherwise, so a test sees only the fetches its site asks for.
 */
export function testIcd(fields: Record<string, unknown>): Icd {
  const scope = (fields.scope ?? {}) as Record<string, unknown>;
  return icdSchema.parse({ politeness: { enabled: false }, aah: { enabled: false }, ...fields, scope: { includeFavicon: false, ...scope } });
}

/**
 * Stores a crawl of the ICD `fields` (testIcd) in a fresh migrated database in a temporary folder;
 * runs `fn`, then closes the database and removes the folder, whatever happens.
 */
export async function withCrawl(prefix: string, fields: Record<string, unknown>, fn: (c: Omit<SiteCrawl, 'origin'>) => Promise<void>): Promise<void> {
  await withTempDir(prefix, async (dir) => {
    const db = openSqlite(join(dir, 'state.db'));
    try {
      applyMigrations(db, resolve('prisma/migrations'));
      const icd = testIcd(fields);
      await fn({ dir, db, icd, crawlId: insertCrawl(db, icd) });
    } finally {
      db.close();
    }
  });
}

/** Serves `site` on 127.0.0.1 and runs `fn` with its origin, then closes the server, whatever happens. */
export async function withSite(site: RequestListener, fn: (origin: string) => Promise<void>): Promise<void> {
  const server = createServer(site);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** Serves `site` on the loopback address `address` (127.0.0.x: a host of its own); returns its origin and how to close it. */
export async function serveOn(address: string, site: RequestListener): Promise<{ origin: string; close(): void }> {
  const server = createServer(site);
  await new Promise<void>((r) => server.listen(0, address, r));
  return { origin: `http://${address}:${(server.address() as AddressInfo).port}`, close: () => (server.closeAllConnections(), server.close()) };
}

/**
 * Serves `site` on 127.0.0.1 and stores a crawl of it (seed: its `/`; see withCrawl; `fields` may
 * be a function of the site's origin when they name its URLs); runs `fn`, then closes the server too.
 */
export async function withSiteCrawl(
  prefix: string,
  site: RequestListener,
  fields: Record<string, unknown> | ((origin: string) => Record<string, unknown>),
  fn: (c: SiteCrawl) => Promise<void>,
): Promise<void> {
  await withSite(site, async (origin) => {
    const own = typeof fields === 'function' ? fields(origin) : fields;
    await withCrawl(prefix, { seeds: [`${origin}/`], ...own }, (c) => fn({ ...c, origin }));
  });
}
