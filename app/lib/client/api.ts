import { hasUnsavedEdits } from './unsaved-edits';

/**
 * The browser's side of the cockpit API (docs/api.md): JSON requests with the session cookie and
 * the CSRF header, and one error type that every page understands (401 → sign in again,
 * 403 → "not allowed", 400 → field issues shown inline).
 */

/** A zod-style issue as the API returns it in a 400 body. */
export interface ApiIssue {
  path: (string | number)[];
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: ApiIssue[] = [],
    readonly permission?: string,
    /** The parsed error body, for routes that say more (e.g. knowledge-base errors with lines). */
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The signed-in user, as the login answer and `GET /api/auth/me` give it with the session's CSRF token. */
export interface SessionUser {
  id: number;
  username: string;
  role: string;
}

export interface SessionBody {
  user: SessionUser;
  csrfToken: string;
}

/**
 * Someone else signed in (in another tab, say) over a page of another user while the page had
 * something of theirs at stake: nothing was sent. A 401 to the pages: sign in again, as `pageUser`.
 */
export class OtherUserError extends ApiError {
  constructor(
    readonly pageUser: string,
    readonly signedIn: string,
  ) {
    super(401, `You are now signed in as ${signedIn}, not as ${pageUser} who opened this page: sign in again as ${pageUser} to save these edits, or reload the page to discard them.`);
    this.name = 'OtherUserError';
  }
}

let csrfToken = '';
/** Who this page works for: the user signed in when it loaded, or when it last went on as another (see `mayGoOnAs`). */
let pageUser: SessionUser | null = null;

/**
 * Whether a page that works for `pageUserId` (null: nobody yet) may go on in a session of
 * `signedInId`, taking its CSRF token. As another user only with nothing at stake: unsaved edits,
 * or a request to send again, were made as the page's user, and sent with the other's token they
 * would be stored as theirs.
 */
export function mayGoOnAs(pageUserId: number | null, signedInId: number, atStake: boolean): boolean {
  return pageUserId === null || pageUserId === signedInId || !atStake;
}

/**
 * Takes the session the server handed out (login or `GET /api/auth/me`): its CSRF token, and its
 * user as the page's. Throws an OtherUserError, keeping both as they were, when `mayGoOnAs` says no.
 */
export function adoptSession(session: SessionBody, atStake: boolean): void {
  if (pageUser && !mayGoOnAs(pageUser.id, session.user.id, atStake)) throw new OtherUserError(pageUser.username, session.user.username);
  csrfToken = session.csrfToken;
  pageUser = session.user;
}

/** Forgets the session (signing out). */
export function forgetSession(): void {
  csrfToken = '';
  pageUser = null;
}

/** Reads the error body in either shape: `{error: "text"}` or `{error: {message, code, status}}`. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => null)) as
    | { error?: string | { message?: string; code?: string }; message?: string; issues?: ApiIssue[]; permission?: string }
    | null;
  const raw = typeof body?.error === 'string' ? body.error : body?.error?.message ?? body?.message;
  const issues = Array.isArray(body?.issues) ? body.issues : [];
  return new ApiError(res.status, describe(res.status, raw, body?.permission), issues, body?.permission, body);
}

function describe(status: number, raw: string | undefined, permission: string | undefined): string {
  if (status === 401) return 'Your session has ended: sign in again.';
  if (status === 403 && raw === 'csrf') return 'The request was refused (security token). Reload the page and try again.';
  if (status === 403) return `Your role may not do this${permission ? ` (needs the “${permission}” permission)` : ''}.`;
  if (status === 404) return raw && raw !== 'not found' ? raw : 'Not found.';
  if (status === 400 && raw === 'invalid') return 'Some fields are not valid.';
  return raw ?? `Request failed (${status})`;
}

/**
 * How long after sending the tab to the login page another call does not send it again. An ended
 * session refuses every read at once (the session check, each list's poll), and each would start the
 * navigation anew, aborting the one under way. A navigation that did not happen after all (the user
 * stayed on the page) is started again by the next refused read past this.
 */
export const LOGIN_REDIRECT_HOLD_MS = 5_000;

/** Whether a call at `now` starts the navigation to the login page, the last one started at `lastAt` (null: none). */
export function startsLoginRedirect(lastAt: number | null, now: number): boolean {
  return lastAt === null || now - lastAt >= LOGIN_REDIRECT_HOLD_MS;
}

let loginRedirectAt: number | null = null;

/** Sends the browser to the login page, coming back here afterwards; once, when several reads are refused together. */
export function redirectToLogin(): void {
  if (typeof window === 'undefined' || window.location.pathname === '/login') return;
  const now = Date.now();
  if (!startsLoginRedirect(loginRedirectAt, now)) return;
  loginRedirectAt = now;
  const next = window.location.pathname + window.location.search;
  window.location.assign(`/login?next=${encodeURIComponent(next)}`);
}

/**
 * Sends the browser to the login page after signing out, with nothing to come back to. The reads
 * the ended session refuses meanwhile (the cleared cache reads again) must not send it there anew,
 * with the page as where to come back to: that navigation aborted this one.
 */
export function leaveAfterSignOut(): void {
  loginRedirectAt = Date.now();
  window.location.assign('/login');
}

/**
 * Whether a 401 answer sends the tab to the login page. Never for a request that changes
 * something: it comes from a button the user pressed, often Save on a form, and leaving would
 * drop what they typed; the error says to sign in again instead. Nor for a background read while
 * a form holds unsaved edits, for the same reason.
 */
export function leavesForLogin(method: string, noRedirect: boolean, unsavedEdits: boolean): boolean {
  return method === 'GET' && !noRedirect && !unsavedEdits;
}

/**
 * Calls the API. A 401 on a read sends the browser to the login page (see `leavesForLogin`), and
 * every non-2xx answer throws an ApiError.
 */
export async function api<T>(method: string, path: string, body?: unknown, opts: { noRedirect?: boolean; headers?: Record<string, string> } = {}): Promise<T> {
  const res = await send(method, path, body, opts);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * A GET of a resource last read with the ETag `etag`: null when the server answers that it has not
 * changed (304), so a poll does not download and parse an unchanged body again.
 */
export async function apiIfChanged<T>(path: string, etag: string | undefined): Promise<T | null> {
  const res = await send('GET', path, undefined, { headers: etag ? { 'if-none-match': etag } : undefined });
  if (res.status === 304) return null;
  return (await res.json()) as T;
}

interface SendOptions {
  noRedirect?: boolean;
  accept?: string;
  signal?: AbortSignal;
  /** More request headers (`If-Match`; `If-None-Match`, whose 304 answer is then no error). */
  headers?: Record<string, string>;
}

/**
 * The request `api` makes; a non-2xx answer throws (401 → sign in again). A refused CSRF token is
 * renewed once and the request sent again: after signing in again (in another tab, say) the
 * session is new and so is its token, and the page must not need a reload that loses the form.
 * Not when the new session is another user's (OtherUserError): the request is the page user's.
 */
async function send(method: string, path: string, body: unknown, opts: SendOptions, renewed = false): Promise<Response> {
  const res = await sendOnce(method, path, body, opts);
  if (res.ok || (res.status === 304 && opts.headers?.['if-none-match'])) return res;
  const error = await errorFromResponse(res);
  const csrfRefused = res.status === 403 && (error.body as { error?: unknown } | null)?.error === 'csrf';
  if (csrfRefused && !renewed && (await renewCsrfToken())) return send(method, path, body, opts, true);
  if (res.status === 401 && leavesForLogin(method, !!opts.noRedirect, hasUnsavedEdits())) redirectToLogin();
  throw error;
}

/**
 * Fetches the current session's CSRF token; false when there is no session or the token is the one
 * already held; throws an OtherUserError when the session is not the page user's.
 */
async function renewCsrfToken(): Promise<boolean> {
  const res = await fetch('/api/auth/me', { credentials: 'same-origin' }).catch(() => null);
  const body = res?.ok ? ((await res.json().catch(() => null)) as Partial<SessionBody> | null) : null;
  if (typeof body?.csrfToken !== 'string' || body.csrfToken === csrfToken || !body.user) return false;
  adoptSession({ csrfToken: body.csrfToken, user: body.user }, true);
  return true;
}

/**
 * No answer came at all: the connection was lost, or the server is down. fetch says only "Failed
 * to fetch" (Chromium) or "NetworkError when attempting to fetch resource." (Firefox), which told
 * someone pressing Save neither what happened to their edits nor what to do.
 */
export class ServerUnreachableError extends Error {
  constructor(readonly method: string) {
    super(unreachableMessage(method));
    this.name = 'ServerUnreachableError';
  }
}

/** What a request that got no answer tells the user: the server was not reached, a change was not made, try again. */
export function unreachableMessage(method: string): string {
  const undone = method === 'GET' || method === 'HEAD' ? '' : method === 'DELETE' ? ', so nothing was deleted' : ', so nothing was saved';
  return `The server could not be reached (the connection was lost, or the server is down)${undone}. Check the connection and try again.`;
}

async function sendOnce(method: string, path: string, body: unknown, opts: SendOptions): Promise<Response> {
  const headers: Record<string, string> = { ...opts.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (opts.accept) headers.accept = opts.accept;
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  try {
    return await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: opts.signal,
    });
  } catch (err) {
    // fetch rejects with a TypeError when no answer came; an abort the caller asked for stays what it is.
    if (opts.signal?.aborted || !(err instanceof TypeError)) throw err;
    throw new ServerUnreachableError(method);
  }
}

/**
 * Calls a route that streams its answer as JSON lines (`Accept: application/x-ndjson`): each
 * line is handed to `onLine` as it arrives, which may throw to stop. Aborting `signal` closes
 * the request.
 */
export async function apiLines(method: string, path: string, onLine: (line: unknown) => void, signal?: AbortSignal): Promise<void> {
  const res = await send(method, path, undefined, { accept: 'application/x-ndjson', signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      pending += value ?? '';
      const lines = pending.split('\n');
      pending = done ? '' : lines.pop()!;
      for (const line of lines) if (line.trim()) onLine(JSON.parse(line));
      if (done) return;
    }
  } catch (err) {
    await reader.cancel().catch(() => undefined); // closes the request: the server stops
    throw err;
  }
}

/** A paged list as the API returns it. */
export interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  /** Read with `upTo` (usePinnedPages): the entries matching the filters that came after it. */
  newer?: number;
}

/** Accepts a paged body or a bare array (some list routes return one). */
export function asPaged<T>(body: Paged<T> | T[], page = 1, pageSize = 50): Paged<T> {
  return Array.isArray(body) ? { items: body, total: body.length, page, pageSize } : body;
}
