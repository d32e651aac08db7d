import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';

/** Answers with an HTML page. */
export const html = (res: ServerResponse, body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);

/** Waits until the crawl's frontier row of `url` passes `ok`, at most 10 s; whether it did. */
export async function rowBecomes(db: () => Database.Database | null, url: string, ok: (row: { state: number; depth: number }) => boolean): Promise<boolean> {
  for (const end = Date.now() + 10_000; Date.now() < end; await sleep(20)) {
    const row = db()?.prepare('SELECT state, depth FROM frontier_url WHERE url = ?').get(url) as { state: number; depth: number } | undefined;
    if (row && ok(row)) return true;
  }
  return false;
}
