import type Database from 'better-sqlite3';
import { loadEnv, type Env } from '../../../worker/config/env';
import { openSqlite } from '../../../worker/store/sqlite';
import { createPrismaClient, type PrismaClient } from '../../../worker/store/prisma';
import { SessionStore } from '../../../worker/auth/sessions';
import type { CrawlEventKind } from '../../../worker/events/messages';
import { CrawlDeletions } from '../../../worker/process/crawl-deletion';

export interface Services {
  env: Readonly<Env>;
  /** The SQLite driver: sessions and the few queries Prisma cannot express well. */
  db: Database.Database;
  prisma: PrismaClient;
  sessions: SessionStore;
  /** Deletes the rows, then the files, of deleted crawls, one crawl at a time (wake() after a deletion, and at start). */
  crawlDeletions: CrawlDeletions;
}

// Next may load a route module more than once (one bundle per route): keep one set per process.
const holder = globalThis as typeof globalThis & { __tidemarkServices?: Services };

/** The server process's database handles, opened on first use (server.ts migrated the DB already). */
export function services(): Services {
  if (!holder.__tidemarkServices) {
    const env = loadEnv();
    const db = openSqlite(env.dbPath);
    holder.__tidemarkServices = {
      env, db, prisma: createPrismaClient(env.dbPath), sessions: new SessionStore(db, env.TIDEMARK_SESSION_HOURS),
      crawlDeletions: new CrawlDeletions({ db, dataDir: env.dataDir, log: (line) => console.log(`tidemark: ${line}`) }),
    };
  }
  return holder.__tidemarkServices;
}

/** Sends a crawl event to the pages watching the crawl (its socket.io room). */
export type CrawlEventSink = (crawlId: number, kind: CrawlEventKind, payload: unknown) => void;

// server.ts holds socket.io; the route modules, built by Next, reach it through the process's one holder.
const sinkHolder = globalThis as typeof globalThis & { __tidemarkCrawlEvents?: CrawlEventSink };

/** Where announceCrawlEvent sends events: server.ts gives socket.io's rooms once it has them. */
export function setCrawlEventSink(sink: CrawlEventSink): void {
  sinkHolder.__tidemarkCrawlEvents = sink;
}

/**
 * Tells the pages watching crawl `crawlId` what an API call did to it (its deletion). Nothing is
 * sent without a sink (a route run without the server, in a test); a sink that throws is logged,
 * never failing the call, which has done its work.
 */
export function announceCrawlEvent(crawlId: number, kind: CrawlEventKind, payload: unknown): void {
  try {
    sinkHolder.__tidemarkCrawlEvents?.(crawlId, kind, payload);
  } catch (err) {
    console.error(`tidemark: crawl ${crawlId} ${kind} event not sent: ${err instanceof Error ? err.message : String(err)}`);
  }
}
