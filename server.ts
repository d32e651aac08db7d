/**
 * Tidemark's server: Next.js (the cockpit and its API) and socket.io on one HTTP port, the
 * bundled demo web site on another loopback port, and the supervised crawl worker process.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import next from 'next';
import { Server as SocketServer, type Socket } from 'socket.io';
import { loadEnv } from './worker/config/env';
import { openSqlite } from './worker/store/sqlite';
import { applyMigrations, MIGRATIONS_DIR } from './worker/store/migrator';
import { DEFAULT_KB_PATH } from './worker/aah/default-kb';
import { firstAdmin, seedDatabase } from './worker/store/seed';
import { startDemoServer } from './worker/demo/demo-server';
import { WorkerSupervisor } from './worker/process/supervisor';
import { EventBatcher } from './worker/events/event-batcher';
import { crawlEventName, crawlRoom, SOCKET_UNAUTHENTICATED, type WorkerMessage } from './worker/events/messages';
import { SessionStore, SESSION_COOKIE, readCookie } from './worker/auth/sessions';
import { serveExportDownload } from './app/lib/server/export-download';
import { guardedListener } from './app/lib/server/guarded-listener';
import { refuseFraming } from './app/lib/server/no-framing';
import { dropEndedSessions, handleSubscriptions, SESSION_RECHECK_MS } from './app/lib/server/socket-subscriptions';
import { startCrawlScheduler } from './app/lib/server/crawl-scheduler';
import { services, setCrawlEventSink } from './app/lib/server/services';
import { sameOrigin } from './worker/auth/origin';
import { boundRegExpBacktracking } from './worker/process/bounded-regexp';
import { listen } from './worker/process/listen';
import { holdDataLock } from './worker/store/data-lock';

const EVENT_FLUSH_MS = 500;
/** The repository: its files (the cockpit's build, the worker) are found from here, whatever the current folder. */
const ROOT = import.meta.dirname;

/**
 * The crawl worker's module: the compiled one that `npm start` and the tests name
 * (scripts/server-bundle.mjs) while it is there, else the source.
 */
function workerEntry(): string {
  const compiled = process.env.TIDEMARK_WORKER_ENTRY;
  return compiled && existsSync(compiled) ? compiled : resolve(ROOT, 'worker/process/worker-main.ts');
}

/**
 * TRACE is answered 405 here: Next's route handlers throw on it ("'TRACE' HTTP method is
 * unsupported"), a 500 with a stack in the log for any request to /api/…. (The other methods Node
 * parses and the cockpit does not serve get a 400 or 405 from Next.)
 */
function refuseTrace(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'TRACE') return false;
  res.writeHead(405, { allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS', 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error: 'TRACE is not supported' }));
  return true;
}

async function main(): Promise<void> {
  boundRegExpBacktracking();
  const env = loadEnv();
  holdDataLock(env.dataDir, `the cockpit on port ${env.PORT}`);
  const db = openSqlite(env.dbPath);
  const applied = applyMigrations(db, MIGRATIONS_DIR);
  if (applied.length) console.log(`tidemark: applied migrations ${applied.join(', ')}`);

  const demo = env.TIDEMARK_DEMO_PORT ? await startDemoServer(env.TIDEMARK_DEMO_PORT) : null;
  if (demo) console.log(`tidemark: demo web site on ${demo.origin}/`);
  const app = next({ dev: false, dir: ROOT, hostname: env.HOST, port: env.PORT });
  await app.prepare();
  const handle = app.getRequestHandler();
  const sessions = new SessionStore(db, env.TIDEMARK_SESSION_HOURS);
  // Export downloads bypass Next, which would drop their Content-Length.
  // A handler that throws is answered 500 rather than leaving its request open.
  const http = createServer(guardedListener((req, res) => refuseTrace(req, res) || serveExportDownload(req, res, { db, sessions, dataDir: env.dataDir }) || handle(req, res)));
  const io = new SocketServer(http, { serveClient: false });
  // No response may be framed. socket.io takes over the server's request listeners and answers
  // /socket.io/ itself, so the headers are set by a listener put before its own.
  http.prependListener('request', (_req, res) => refuseFraming(res));
  io.use((socket, nextFn) => {
    // socket.io does not catch a middleware's exception: the handshake would never be answered.
    try {
      const origin = socket.request.headers.origin;
      if (origin && !sameOrigin(origin, socket.request.headers.host)) return nextFn(new Error('cross-site socket refused'));
      const user = sessions.lookup(readCookie(socket.request.headers.cookie, SESSION_COOKIE));
      if (!user) return nextFn(new Error(SOCKET_UNAUTHENTICATED));
      socket.data.user = user;
      nextFn();
    } catch (err) {
      console.error(`tidemark: socket handshake: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      nextFn(new Error('internal error'));
    }
  });
  const sessionOf = (socket: Socket) => sessions.lookup(readCookie(socket.request.headers.cookie, SESSION_COOKIE));
  io.on('connection', (socket) => handleSubscriptions(socket, () => sessionOf(socket)));
  const recheckSessions = setInterval(() => dropEndedSessions(io, sessionOf), SESSION_RECHECK_MS);

  // The API's own crawl events (a deletion) go to the crawl's room at once, not through the batcher.
  setCrawlEventSink((crawlId, kind, payload) => io.to(crawlRoom(crawlId)).emit(crawlEventName(crawlId, kind), payload));
  const batcher = new EventBatcher();
  const flush = setInterval(() => {
    for (const event of batcher.flush()) io.to(crawlRoom(event.crawlId)).emit(crawlEventName(event.crawlId, event.kind), event.payload);
  }, EVENT_FLUSH_MS);

  const supervisor = new WorkerSupervisor({
    entry: workerEntry,
    log: (line) => console.log(`tidemark: ${line}`),
    onMessage: (message: WorkerMessage) => {
      switch (message.type) {
        case 'stats': return batcher.push({ crawlId: message.crawlId, kind: 'stats', payload: message.stats });
        case 'captures': return batcher.push({ crawlId: message.crawlId, kind: 'capture', payload: message.captures, count: message.count });
        case 'relevance': return batcher.push({ crawlId: message.crawlId, kind: 'relevance', payload: message.payload });
        case 'coherence': return batcher.push({ crawlId: message.crawlId, kind: 'coherence', payload: message.payload });
        case 'status': return batcher.push({ crawlId: message.crawlId, kind: 'status', payload: { status: message.status } });
        case 'ready': return console.log(`tidemark: crawl worker ${message.pid} ready`);
      }
    },
  });
  // The first admin's password is hashed before listening, and the database seeded synchronously
  // right after: no request is answered before the admin, the Demo ICD and the knowledge base exist.
  const admin = await firstAdmin(db, env.TIDEMARK_ADMIN_PASSWORD);
  // Listening comes before the first user's one-time password and the worker: a start that fails on
  // a port in use must neither print a password nobody will see again nor leave a worker running.
  await listen(http, 'the cockpit', env.HOST, env.PORT, 'PORT');
  const seeded = seedDatabase(db, { admin, demoOrigin: demo?.origin, knowledgeBasePath: DEFAULT_KB_PATH });
  if (seeded.oneTimePassword) {
    console.log(`tidemark: created user "admin" with one-time password: ${seeded.oneTimePassword}`);
    console.log('tidemark: (sign in and change it under Account, or set TIDEMARK_ADMIN_PASSWORD before the first start to choose it)');
  }
  supervisor.start();
  // Deletions a stopped server left midway: their crawls are gone from the cockpit already, their rows not all.
  // Files that could not be removed are tried at once, not at their retry time: an admin may have restarted to free them.
  void services().crawlDeletions.wake({ retryFilesNow: true });
  // Scheduled crawls (an ICD's schedule): due ones are created as "Start a crawl" creates them; the worker picks them up.
  const stopScheduler = startCrawlScheduler(services().prisma, (line) => console.log(`tidemark: ${line}`));
  // The port bound, which PORT=0 leaves to the system.
  console.log(`tidemark: cockpit on http://${env.HOST}:${(http.address() as AddressInfo).port}/`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`tidemark: ${signal}, shutting down`);
    clearInterval(flush);
    clearInterval(recheckSessions);
    stopScheduler();
    await supervisor.stop();
    io.close();
    http.close();
    await demo?.close();
    db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(`tidemark: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
