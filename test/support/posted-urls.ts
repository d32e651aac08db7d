/**
 * Scored URLs posted to a crawl as the cockpit receives them: POST /api/crawls/:id/urls through its
 * route handler, over the real migrated database of route-database.ts.
 */
import { after, before } from 'node:test';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Services } from '../../app/lib/server/services';
import { CrawlEngine } from '../../worker/crawler/crawl-engine';
import type { Icd } from '../../worker/icd/schema';
import { testIcd } from './site-crawl';
import { openSqlite } from '../../worker/store/sqlite';
import { insertCrawl } from './crawl-rows';
import { routeDatabase, signedInAs } from './route-database';
import { startHoldingSite, type HoldingSite } from './holding-site';

const ORIGIN = 'http://cockpit.test';

/** What a test of posted URLs works with, set up before the file's tests (postingParts). */
export interface PostingParts {
  /** The cockpit's services: its database as the route handlers use it, its data directory. */
  s: Services;
  /** An admin signed in (signedInAs). */
  admin: { cookie: string; csrf: string };
  /** The worker's own connection to the cockpit's database, as the worker process has. */
  worker: Database.Database;
}

/** PostingParts on a fresh data directory named after `prefix`, made before the file's tests; the worker's connection closed after. */
export function postingParts(prefix: string): PostingParts {
  const parts = {} as PostingParts;
  before(async () => {
    parts.s = await routeDatabase(prefix);
    parts.admin = await signedInAs(parts.s, 'root', 'admin');
    parts.worker = openSqlite(parts.s.env.dbPath);
  });
  after(() => parts.worker?.close());
  return parts;
}

/** An engine for the crawl on the worker's connection, its files in the data directory. */
export function engineFor(p: PostingParts, crawlId: number, icd: Icd): CrawlEngine {
  const dir = p.s.env.dataDir;
  return new CrawlEngine({ crawlId, icd, db: p.worker, warcDir: join(dir, `warcs-${crawlId}`), spoolDir: join(dir, `spool-${crawlId}`) });
}
type Handler = (req: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;

/** POST /api/crawls/:id/<what> with `body` through the route handler `POST`, signed in as `user` (signedInAs). */
async function postToCrawl(POST: unknown, what: string, user: PostingParts['admin'], crawlId: number, body: unknown): Promise<Response> {
  const req = new Request(`${ORIGIN}/api/crawls/${crawlId}/${what}`, {
    method: 'POST', headers: { host: 'cockpit.test', origin: ORIGIN, cookie: user.cookie, 'x-csrf-token': user.csrf }, body: JSON.stringify(body),
  });
  return (POST as Handler)(req, { params: Promise.resolve({ id: String(crawlId) }) });
}

/** POST /api/crawls/:id/urls with `body`, signed in as `user`. */
export async function postUrls(user: PostingParts['admin'], crawlId: number, body: unknown): Promise<Response> {
  const { POST } = await import('../../app/api/crawls/[id]/urls/route');
  return postToCrawl(POST, 'urls', user, crawlId, body);
}

/** POST /api/crawls/:id/control: pause, resume or stop the crawl as `user`. */
export async function controlAs(user: PostingParts['admin'], crawlId: number, action: 'pause' | 'resume' | 'stop'): Promise<Response> {
  const { POST } = await import('../../app/api/crawls/[id]/control/route');
  return postToCrawl(POST, 'control', user, crawlId, { action });
}

/** A crawl the worker runs now, as the manager marks it (testIcd: politeness, AAH and favicons off unless `fields` say). */
export function runningCrawl(db: Database.Database, fields: Record<string, unknown>): { icd: Icd; crawlId: number } {
  const icd = testIcd({ name: 'Quay notices', ...fields });
  const crawlId = insertCrawl(db, icd);
  db.prepare("UPDATE Crawl SET status = 'running' WHERE id = ?").run(crawlId);
  return { icd, crawlId };
}

/** How many posted URLs wait in frontier_intake for the crawl's worker. */
export function waitingUrls(db: Database.Database, crawlId: number): number {
  return db.prepare('SELECT COUNT(*) FROM frontier_intake WHERE crawl_id = ?').pluck().get(crawlId) as number;
}

/** Polls the crawl's status until it is `wanted` or `timeoutMs` passed; the last status seen. */
export async function crawlStatusBecomes(db: Database.Database, crawlId: number, wanted: string, timeoutMs = 30_000): Promise<string> {
  let status = '';
  for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    status = db.prepare('SELECT status FROM Crawl WHERE id = ?').pluck().get(crawlId) as string;
    if (status === wanted) break;
  }
  return status;
}

/** A visit–revisit crawl with recrawls under way, with a URL posted during its revisit pass (postedDuringPass). */
export interface PostedDuringPass {
  site: HoldingSite;
  crawlId: number;
  engine: CrawlEngine;
  run: Promise<string>;
  /** The URL posted: `<site>/posted`. */
  posted: string;
}

/**
 * Starts a visit–revisit crawl with recrawls of a holding site (its first revisit waits), posts
 * `<site>/posted` while that revisit waits, gives the worker time to apply it, then lets the pass go
 * on. The caller stops the engine and closes the site; on a failure here they are stopped.
 */
export async function postedDuringPass(p: PostingParts): Promise<PostedDuringPass> {
  const site = await startHoldingSite((path, before) => before.includes(path) && path !== '/robots.txt');
  const { icd, crawlId } = runningCrawl(p.s.db, { seeds: [`${site.origin}/`], coherence: { mode: 'visit-revisit', recrawlIntervalMinutes: 10_000 } });
  const engine = engineFor(p, crawlId, icd);
  const run = engine.run();
  const posted = `${site.origin}/posted`;
  try {
    await Promise.race([site.held, run.then((o) => { throw new Error(`the crawl ended (${o}) before any revisit`); })]);
    const answer = await postUrls(p.admin, crawlId, [{ url: posted, score: 0.9 }]);
    if (answer.status !== 202) throw new Error(`a crawl with recrawls takes URLs during its pass: ${answer.status}`);
    await new Promise((r) => setTimeout(r, 700)); // the worker applies posted URLs every 500 ms
    site.release();
  } catch (e) {
    await engine.stop();
    await run;
    site.close();
    throw e;
  }
  return { site, crawlId, engine, run, posted };
}
