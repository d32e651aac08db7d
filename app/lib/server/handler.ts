import type Database from 'better-sqlite3';
import { z, ZodError } from 'zod';
import { can, type Permission } from '../../../worker/auth/roles';
import { sameOrigin } from '../../../worker/auth/origin';
import { CSRF_HEADER, SESSION_COOKIE, csrfMatches, readCookie, type SessionUser } from '../../../worker/auth/sessions';
import { plainIssueMessage } from '../../../worker/icd/plain-issues';
import type { Icd } from '../../../worker/icd/schema';
import { parseUserIcd } from '../../../worker/icd/user-icd';
import type { PrismaClient } from '../../../worker/store/prisma';
import { services } from './services';
import { positiveDecimal } from '../positive-decimal';

/** An issue at a field of the request, as the API returns them (and the form shows them): path + message. */
export type ApiIssue = { path: (string | number)[]; message: string };

/**
 * An error with the HTTP status the client should see (404, 409, …); `issues` place it at a field
 * of the request too, as a 400 of the schema's would.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: ApiIssue[],
  ) {
    super(message);
  }
}

export interface RouteContext<P> {
  req: Request;
  params: P;
  user: SessionUser;
  db: Database.Database;
  prisma: PrismaClient;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session behind a request's cookie, or null. */
export function sessionUser(req: Request): SessionUser | null {
  return services().sessions.lookup(readCookie(req.headers.get('cookie'), SESSION_COOKIE));
}

/**
 * A state-changing request must come from our own pages: the CSRF token of the session in its
 * header, and (when the browser sends one) an Origin equal to the host it was sent to.
 */
export function csrfRefused(req: Request, user: SessionUser): boolean {
  const origin = req.headers.get('origin');
  if (origin && !sameOrigin(origin, req.headers.get('x-forwarded-host') ?? req.headers.get('host'))) return true;
  return !csrfMatches(req.headers.get(CSRF_HEADER), user.csrfToken);
}

export function jsonError(status: number, body: Record<string, unknown>): Response {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}

/** zod issues as the API returns them (and the form shows them): path + message. */
export function issuesOf(err: ZodError): ApiIssue[] {
  return err.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message }));
}

/** Turns whatever a handler threw into the API's error shape. */
export function errorResponse(err: unknown): Response {
  if (err instanceof ZodError) return jsonError(400, { error: 'invalid', issues: issuesOf(err) });
  if (err instanceof HttpError) return jsonError(err.status, { error: err.message, ...(err.issues ? { issues: err.issues } : {}) });
  console.error(`tidemark api: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return jsonError(500, { error: 'internal error' });
}

/**
 * Wraps a route handler: 401 without a session, CSRF and Origin checks on state-changing methods,
 * 403 unless the user's role grants `permission`, zod errors → 400, HttpError → its status; a
 * plain return value is sent as JSON (a Response is sent as is).
 */
export function apiRoute<P = Record<string, string>>(permission: Permission, handler: (ctx: RouteContext<P>) => Promise<unknown>) {
  return async (req: Request, ctx: { params: Promise<P> }): Promise<Response> => {
    try {
      const user = sessionUser(req);
      if (!user) return jsonError(401, { error: 'unauthenticated' });
      if (!SAFE_METHODS.has(req.method) && csrfRefused(req, user)) return jsonError(403, { error: 'csrf' });
      if (!can(user.role, permission)) return jsonError(403, { error: 'forbidden', permission });
      const { db, prisma } = services();
      const result = await handler({ req, params: await ctx.params, user, db, prisma });
      if (result instanceof Response) return result;
      if (result === undefined) return new Response(null, { status: 204 });
      return Response.json(result, { headers: { 'cache-control': 'no-store' } });
    } catch (err) {
      return errorResponse(err);
    }
  };
}

/** Largest JSON body a route reads: a 10 MB knowledge base, JSON-escaped, fits. */
export const MAX_JSON_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Parses a JSON body with a zod schema (a body that is not JSON is a 400 too). A body over
 * MAX_JSON_BODY_BYTES is a 413, refused before it is held whole: the schemas bound what a
 * request may hold only once it is parsed.
 */
export async function readJson<T>(req: Request, schema: z.ZodType<T>): Promise<T> {
  return parseBody(await readBodyText(req, MAX_JSON_BODY_BYTES), schema);
}

/** As readJson, but an empty body gives `undefined` (for requests whose body is optional). */
export async function readOptionalJson<T>(req: Request, schema: z.ZodType<T>): Promise<T | undefined> {
  const text = await readBodyText(req, MAX_JSON_BODY_BYTES);
  return text.trim() ? parseBody(text, schema) : undefined;
}

/** An ICD in the request's body: as readJson, and a field the schema does not know is refused (parseUserIcd). */
export async function readIcd(req: Request): Promise<Icd> {
  return parseUserIcd(jsonOf(await readBodyText(req, MAX_JSON_BODY_BYTES)));
}

function parseBody<T>(text: string, schema: z.ZodType<T>): T {
  return schema.parse(jsonOf(text), { error: plainIssueMessage });
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON');
  }
}

async function readBodyText(req: Request, limit: number): Promise<string> {
  const tooLarge = () => new HttpError(413, `The request body is larger than ${limit / 2 ** 20} MB`);
  if (Number(req.headers.get('content-length')) > limit) throw tooLarge();
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A positive integer id from a route parameter, or 404. Decimal digits only: with Number(),
 * `/api/crawls/0x1`, `1e0` or `01` answered as crawl 1.
 */
export function idParam(value: string | undefined): number {
  const id = positiveDecimal(value);
  if (id === null) throw new HttpError(404, 'not found');
  return id;
}

/** Largest number of rows a page may skip: far beyond any crawl's list, and a whole integer to SQLite. */
export const MAX_PAGE_OFFSET = 1_000_000_000;

/**
 * A newest-first list's `?upTo=<id>` (see usePinnedPages): the list holds the rows up to that id,
 * and counts those after it as `newer`; null without upTo, 400 when upTo is no id.
 */
export function upToParam(url: URL): number | null {
  const raw = url.searchParams.get('upTo');
  if (raw === null) return null;
  const upTo = positiveDecimal(raw);
  if (upTo === null) throw new HttpError(400, 'upTo must be an entry id');
  return upTo;
}

/**
 * `?page=&pageSize=`: `page` a whole number from 1 (absent: 1) whose offset stays within
 * MAX_PAGE_OFFSET, else 400 (`page=1e300` reached Prisma as a skip it refused: a 500);
 * `pageSize` is clamped to 1…500 (default 50).
 */
export function pageParams(url: URL): { page: number; pageSize: number; offset: number } {
  const pageSize = Math.min(500, Math.max(1, Math.floor(Number(url.searchParams.get('pageSize')) || 50)));
  const raw = url.searchParams.get('page');
  const page = raw === null || raw === '' ? 1 : positiveDecimal(raw);
  if (page === null || (page - 1) * pageSize > MAX_PAGE_OFFSET) {
    throw new HttpError(400, `page must be a whole number from 1 to ${Math.floor(MAX_PAGE_OFFSET / pageSize) + 1} (with pageSize ${pageSize})`);
  }
  return { page, pageSize, offset: (page - 1) * pageSize };
}
