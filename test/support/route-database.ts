/**
 * Route handlers called as Next calls them, over a real migrated SQLite database in a fresh
 * temporary data directory (no server, no Next build).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import type { Services } from '../../app/lib/server/services';

/** The server's services on a new data directory, its database migrated. Call before any route runs. */
export async function routeDatabase(prefix: string): Promise<Services> {
  process.env.TIDEMARK_DATA_DIR = mkdtempSync(join(tmpdir(), prefix));
  delete process.env.TIDEMARK_DB;
  const { services } = await import('../../app/lib/server/services');
  const { applyMigrations } = await import('../../worker/store/migrator');
  applyMigrations(services().db, resolve('prisma/migrations'));
  return services();
}

/** A new user with `role`, signed in: the cookie and CSRF token of the session. */
export async function signedInAs(s: Services, username: string, role: string): Promise<{ cookie: string; csrf: string }> {
  const { hashPassword } = await import('../../worker/auth/password');
  s.db.prepare("INSERT INTO User (username, passwordHash, role, createdAt) VALUES (?, ?, ?, datetime('now'))").run(username, await hashPassword('pw'), role);
  const session = await s.sessions.login(username, 'pw');
  if (!session) throw new Error(`${username} could not sign in`);
  return { cookie: `tidemark_session=${session.token}`, csrf: session.user.csrfToken };
}

export type RouteHandler<P> = (req: Request, ctx: { params: Promise<P> }) => Promise<Response>;

/** `handler` called as Next calls it, for the signed-in session `as` (a body only when `body` is given): its Response as sent. */
export async function routeResponse<P>(as: { cookie: string; csrf: string }, handler: RouteHandler<P>, method: string, path: string, body: unknown, params: P): Promise<Response> {
  const origin = 'http://cockpit.test';
  const req = new Request(`${origin}${path}`, {
    method,
    headers: { host: 'cockpit.test', origin, cookie: as.cookie, 'x-csrf-token': as.csrf },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return handler(req, { params: Promise.resolve(params) });
}

/** routeResponse's status and JSON body ({} for a 204). */
export async function callRoute<P>(
  as: { cookie: string; csrf: string },
  handler: RouteHandler<P>,
  method: string,
  path: string,
  body: unknown,
  params: P,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await routeResponse(as, handler, method, path, body, params);
  return { status: res.status, body: res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>) };
}

/** The worker as the server runs it: a CrawlManager on its own connection to the route database, started; `exporting()` tells whether it runs an export now. */
export async function startWorker(s: Services): Promise<{ db: Database.Database; exporting(): boolean; stop(): Promise<void> }> {
  const { CrawlManager } = await import('../../worker/process/crawl-manager');
  const { openSqlite } = await import('../../worker/store/sqlite');
  const db = openSqlite(s.env.dbPath);
  const manager = new CrawlManager({ db, dataDir: s.env.dataDir, send: () => undefined, kbPath: resolve('knowledge-base/default.xml') });
  manager.start();
  return {
    db,
    exporting: () => manager.isExporting(),
    async stop() {
      await manager.shutdown();
      db.close();
    },
  };
}
