/**
 * Export file downloads, served by server.ts on the Node response itself: Next's route handlers
 * drop a Response's Content-Length (and would gzip text files), and an archivist's download must
 * carry its size and arrive byte for byte as the export's sha256 says. The route handler at
 * app/api/exports/[id]/files/[name] uses the same lookup when Next serves the path directly.
 */
import type Database from 'better-sqlite3';
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { can } from '../../../worker/auth/roles';
import { SESSION_COOKIE, readCookie, type SessionStore } from '../../../worker/auth/sessions';
import { crawlWarcDir, exportDir } from '../../../worker/store/data-layout';

export interface ExportFileLookup {
  path: string;
  name: string;
  bytes: number;
  sha256: string;
  headers: Record<string, string>;
}

export type ExportFileResult = ExportFileLookup | { status: number; error: string };

const DOWNLOAD_PATH = /^\/api\/exports\/(\d+)\/files\/([^/?#]+)$/;

function contentType(name: string): string {
  if (name.endsWith('.gz')) return 'application/warc+gzip';
  if (name.endsWith('.json')) return 'application/json';
  return 'text/plain; charset=utf-8';
}

/** The file an export lists under `name`, or why it cannot be had (only listed names are served). */
export function findExportFile(db: Database.Database, dataDir: string, exportId: number, name: string): ExportFileResult {
  const row = db.prepare('SELECT crawlId, status, files, selection FROM Export WHERE id = ?').get(exportId) as { crawlId: number; status: string; files: string; selection: string | null } | undefined;
  if (!row) return { status: 404, error: 'not found' };
  if (row.status !== 'done') return { status: 409, error: `The export is ${row.status}` };
  let files: { name: string; sha256: string }[] = [];
  try {
    files = JSON.parse(row.files) as { name: string; sha256: string }[];
  } catch {
    files = [];
  }
  // The listed name, never the client's string, reaches the file system.
  const file = files.find((f) => f.name === name);
  if (!file) return { status: 404, error: 'not found' };
  // A collection's files are its own; the whole crawl's are the crawl's.
  const path = join(row.selection ? exportDir(dataDir, exportId) : crawlWarcDir(dataDir, row.crawlId), file.name);
  let bytes: number;
  try {
    bytes = statSync(path).size;
  } catch {
    return { status: 410, error: `${file.name} is no longer on disk` };
  }
  return {
    path,
    name: file.name,
    bytes,
    sha256: file.sha256,
    headers: {
      'content-type': contentType(file.name),
      'content-length': String(bytes),
      'content-disposition': `attachment; filename="${file.name.replace(/["\\\r\n]/g, '')}"`,
      'x-content-sha256': file.sha256,
      // no-transform: a compressing proxy or server must not change the bytes the sha256 names.
      'cache-control': 'no-store, no-transform',
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * Serves `GET /api/exports/:id/files/:name` when `req` is that request (returns false otherwise):
 * 401 without a session, 403 without the export permission, then the file with its length.
 */
export function serveExportDownload(req: IncomingMessage, res: ServerResponse, deps: { db: Database.Database; sessions: SessionStore; dataDir: string }): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const match = DOWNLOAD_PATH.exec((req.url ?? '').split('?')[0]!);
  if (!match) return false;
  const user = deps.sessions.lookup(readCookie(req.headers.cookie, SESSION_COOKIE));
  if (!user) return sendJson(res, 401, { error: 'unauthenticated' }), true;
  if (!can(user.role, 'export')) return sendJson(res, 403, { error: 'forbidden', permission: 'export' }), true;
  let name: string;
  try {
    name = decodeURIComponent(match[2]!);
  } catch {
    return sendJson(res, 404, { error: 'not found' }), true;
  }
  const found = findExportFile(deps.db, deps.dataDir, Number(match[1]), name);
  if ('error' in found) return sendJson(res, found.status, { error: found.error }), true;
  res.writeHead(200, found.headers);
  if (req.method === 'HEAD') return res.end(), true;
  const stream = createReadStream(found.path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
  return true;
}
