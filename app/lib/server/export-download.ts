/**
 * Export file downloads, served by server.ts on the Node response itself: Next's route handlers
 * drop a Response's Content-Length (and would gzip text files), and an archivist's download must
 * carry its size and arrive byte for byte as the export's sha256 says. The route handler at
 * app/api/exports/[id]/files/[name] uses the same lookup when Next serves the path directly.
 */
import type Database from 'better-sqlite3';
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { join } from 'node:path';
import { can } from '../../../worker/auth/roles';
import { SESSION_COOKIE, readCookie, type SessionStore } from '../../../worker/auth/sessions';
import { crawlWarcDir, exportDir } from '../../../worker/store/data-layout';
import { sha256File } from '../../../worker/export/file-digest';
import { positiveDecimal } from '../positive-decimal';

export interface ExportFileLookup {
  path: string;
  name: string;
  bytes: number;
  sha256: string;
  headers: Record<string, string>;
}

export type ExportFileResult = ExportFileLookup | { status: number; error: string };

const DOWNLOAD_PATH = /^\/api\/exports\/(\d+)\/files\/([^/?#]+)$/;

/**
 * The export id and file name of a download's path segments, or null (404): the id in decimal
 * digits from 1 as every route's (`01` and `1e0` are not export 1), the name percent-decoded (a
 * malformed escape names no file). server.ts and the route handler both read them here.
 */
export function downloadTarget(idSegment: string, nameSegment: string): { exportId: number; name: string } | null {
  const exportId = positiveDecimal(idSegment);
  if (exportId === null) return null;
  try {
    return { exportId, name: decodeURIComponent(nameSegment) };
  } catch {
    return null;
  }
}

/**
 * The Content-Type of an export's file, by its name. A WARC file is `application/warc` (the type IANA
 * registered for ISO 28500), compressed or not: a `.warc.gz`'s gzip members are part of the file format, and
 * `Content-Encoding: gzip` (or the unregistered `application/warc+gzip`) would have browsers and
 * clients decompress it. A WACZ is a ZIP (`application/wacz` is not registered); a CDXJ index and
 * anything else textual is UTF-8 text.
 */
export function exportContentType(name: string): string {
  if (name.endsWith('.warc') || name.endsWith('.warc.gz')) return 'application/warc';
  if (name.endsWith('.wacz')) return 'application/zip';
  if (name.endsWith('.json')) return 'application/json';
  return 'text/plain; charset=utf-8';
}

/**
 * The file an export lists under `name`, or why it cannot be had (only listed names are served).
 * An export's files are in its own folder, taken when it was made (export-job.ts). An export made
 * before exports took them has no folder and listed the crawl's own files: those are served only
 * while they are still as listed (a closed WARC file is never rewritten, so its size tells; the
 * index and certificate are rewritten when the crawl goes on, so their sha256 is checked), else 410.
 */
export async function findExportFile(db: Database.Database, dataDir: string, exportId: number, name: string): Promise<ExportFileResult> {
  const row = db.prepare('SELECT crawlId, status, files FROM Export WHERE id = ?').get(exportId) as { crawlId: number; status: string; files: string } | undefined;
  if (!row) return { status: 404, error: 'not found' };
  if (row.status !== 'done') return { status: 409, error: `The export is ${row.status}` };
  let files: { name: string; bytes?: number; sha256: string }[] = [];
  try {
    files = JSON.parse(row.files) as { name: string; bytes?: number; sha256: string }[];
  } catch {
    files = [];
  }
  // The listed name, never the client's string, reaches the file system.
  const file = files.find((f) => f.name === name);
  if (!file) return { status: 404, error: 'not found' };
  const ownDir = exportDir(dataDir, exportId);
  const own = existsSync(ownDir);
  const path = join(own ? ownDir : crawlWarcDir(dataDir, row.crawlId), file.name);
  let bytes: number;
  try {
    bytes = statSync(path).size;
  } catch {
    return { status: 410, error: `${file.name} is no longer on disk` };
  }
  const changed = (file.bytes !== undefined && bytes !== file.bytes) || (!own && !file.name.endsWith('.warc.gz') && (await sha256File(path)) !== file.sha256);
  if (changed) return { status: 410, error: `${file.name} has changed since export ${exportId} was made${own ? '' : ' (it is the crawl\'s own file, and the crawl went on)'}: request a new export` };
  return {
    path,
    name: file.name,
    bytes,
    sha256: file.sha256,
    headers: {
      'content-type': exportContentType(file.name),
      'content-length': String(bytes),
      'content-disposition': `attachment; filename="${file.name.replace(/["\\\r\n]/g, '')}"`,
      'x-content-sha256': file.sha256,
      // no-transform: a compressing proxy or server must not change the bytes the sha256 names.
      'cache-control': 'no-store, no-transform',
      // Replay tools read a WACZ by ranges, and a broken multi-gigabyte download resumes by one.
      'accept-ranges': 'bytes',
    },
  };
}

/**
 * The one byte range a `Range` header asks of a file of `size` bytes (inclusive ends), null to send
 * the whole file (no header, one that is not `bytes=`, or several ranges, which no archive reader
 * needs), or 'unsatisfiable' (416) when it starts past the end.
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    // A suffix: the last N bytes.
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

/** Status, headers and byte span of the answer to a download with the request's `Range` header. */
export function downloadAnswer(found: ExportFileLookup, rangeHeader: string | undefined): { status: number; headers: Record<string, string>; span?: { start: number; end: number } } {
  const range = byteRange(rangeHeader, found.bytes);
  if (range === null) return { status: 200, headers: found.headers, span: found.bytes ? { start: 0, end: found.bytes - 1 } : undefined };
  if (range === 'unsatisfiable') return { status: 416, headers: { 'content-range': `bytes */${found.bytes}`, 'content-length': '0' } };
  return {
    status: 206,
    headers: { ...found.headers, 'content-length': String(range.end - range.start + 1), 'content-range': `bytes ${range.start}-${range.end}/${found.bytes}` },
    span: range,
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * Serves `GET /api/exports/:id/files/:name` when `req` is that request (returns false otherwise):
 * 401 without a session, 403 without the export permission, then the file with its length, or
 * the byte range asked for (206).
 */
export function serveExportDownload(req: IncomingMessage, res: ServerResponse, deps: { db: Database.Database; sessions: SessionStore; dataDir: string }): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const match = DOWNLOAD_PATH.exec((req.url ?? '').split('?')[0]!);
  if (!match) return false;
  const user = deps.sessions.lookup(readCookie(req.headers.cookie, SESSION_COOKIE));
  if (!user) return sendJson(res, 401, { error: 'unauthenticated' }), true;
  if (!can(user.role, 'export')) return sendJson(res, 403, { error: 'forbidden', permission: 'export' }), true;
  const target = downloadTarget(match[1]!, match[2]!);
  if (!target) return sendJson(res, 404, { error: 'not found' }), true;
  const { exportId, name } = target;
  void findExportFile(deps.db, deps.dataDir, exportId, name).then(
    (found) => {
      if ('error' in found) return sendJson(res, found.status, { error: found.error });
      const answer = downloadAnswer(found, req.headers.range);
      res.writeHead(answer.status, answer.headers);
      if (req.method === 'HEAD' || !answer.span) return void res.end();
      // pipeline, not pipe: a client that goes before the end (a tab closed, a download cancelled)
      // must close the file too; pipe() left it open and paused for good, with the disk space of an
      // export deleted since.
      pipeline(createReadStream(found.path, answer.span), res, () => undefined);
    },
    () => sendJson(res, 500, { error: `${name} could not be read` }),
  );
  return true;
}
