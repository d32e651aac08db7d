import { join } from 'node:path';
import { z } from 'zod';
import { loadEnv } from '../../../../../worker/config/env';
import { openSqlite } from '../../../../../worker/store/sqlite';
import { createPrismaClient, type PrismaClient } from '../../../../../worker/store/prisma';
import { SessionStore, SESSION_COOKIE, readCookie } from '../../../../../worker/auth/sessions';
import { can } from '../../../../../worker/auth/roles';

/**
 * The coherence routes' shared steps: session → permission (view) → crawl id → crawl exists →
 * domain call. Written before the cockpit's common route wrapper existed; the error bodies follow
 * docs/api.md so the wrapper can replace this file without changing the routes' behaviour.
 */

interface Services {
  prisma: PrismaClient;
  sessions: SessionStore;
  dataDir: string;
}

let services: Services | null = null;

/** One Prisma client and session store per server process, opened on first use. */
function getServices(): Services {
  if (!services) {
    const env = loadEnv();
    services = { prisma: createPrismaClient(env.dbPath), sessions: new SessionStore(openSqlite(env.dbPath), env.TIDEMARK_SESSION_HOURS), dataDir: env.dataDir };
  }
  return services;
}

export interface CoherenceRouteContext {
  crawlId: number;
  request: Request;
  prisma: PrismaClient;
  /** Where the crawl's WARC files and certificate are. */
  warcDir: string;
}

const crawlIdSchema = z.coerce.number().int().positive();

/** Wraps a GET handler of `/api/crawls/:id/coherence…`. */
export function coherenceRoute(handler: (ctx: CoherenceRouteContext) => Promise<Response>) {
  return async (request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
    const { prisma, sessions, dataDir } = getServices();
    const user = sessions.lookup(readCookie(request.headers.get('cookie'), SESSION_COOKIE));
    if (!user) return Response.json({ error: 'unauthenticated' }, { status: 401 });
    if (!can(user.role, 'view')) return Response.json({ error: 'forbidden', permission: 'view' }, { status: 403 });
    const parsed = crawlIdSchema.safeParse((await params).id);
    if (!parsed.success) return Response.json({ error: 'invalid', issues: parsed.error.issues.map((i) => ({ path: ['id'], message: i.message })) }, { status: 400 });
    const crawlId = parsed.data;
    if (!(await prisma.crawl.findUnique({ where: { id: crawlId }, select: { id: true } }))) return Response.json({ error: 'not found' }, { status: 404 });
    return handler({ crawlId, request, prisma, warcDir: join(dataDir, 'warcs', String(crawlId)) });
  };
}
