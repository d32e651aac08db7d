import type Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { WarcWriter, crawlWarcId } from '../../worker/warc';
import { sqlDate } from '../../worker/store/sqlite';
import { makeExchange } from '../unit/warc/make-exchange';

/**
 * Writes `captures` small HTML pages of a crawl with its own writer into `warcDir` (stored
 * uncompressed, written fast), the i-th at `urlOf(i)`, a tenth of a second apart from 1 January 2026
 * plus `day` days, with the Capture rows the crawl's commits would have stored (record ids, depth
 * i % 5, title), and marks the crawl finished: a large crawl to export, made in seconds.
 */
export async function writeManyCaptures(db: Database.Database, warcDir: string, crawlId: number, captures: number, day: number, urlOf: (i: number) => string): Promise<void> {
  mkdirSync(warcDir, { recursive: true });
  const base = Date.UTC(2026, 0, 1 + day);
  // Files named by that day too: the same crawl written twice has the same file names and index.
  const writer = new WarcWriter({ dir: warcDir, crawlId: crawlWarcId(crawlId), software: 'Tidemark/test', robotsPolicy: 'obey', userAgent: 'tidemark-test', threads: 1, gzipLevel: 0, rotateBytes: 256 * 1024 * 1024, now: () => new Date(base) });
  await writer.open();
  const insert = db.prepare(
    "INSERT INTO Capture (crawlId, url, status, mime, size, payloadDigest, recordType, warcFile, warcOffset, warcLength, warcRecordId, depth, title, fetchedAt, durationMs) VALUES (?, ?, 200, 'text/html', ?, ?, 'response', ?, ?, ?, ?, ?, ?, ?, 0)",
  );
  const rows: unknown[][] = [];
  const commit = db.transaction(() => {
    for (const r of rows) insert.run(...r);
    rows.length = 0;
  });
  let pending: Promise<void>[] = [];
  for (let i = 0; i < captures; i++) {
    const url = urlOf(i);
    const date = new Date(base + i * 100);
    const body = Buffer.from(`<!doctype html><title>Page ${i} of day ${day}</title><p>Text of page ${i}, day ${day}.</p>`);
    const ex = makeExchange({ url, body, date });
    pending.push(writer.writeCapture(ex).then((w) => void rows.push([crawlId, url, body.length, ex.payloadDigest, w.filename, w.offset, w.length, w.recordId, i % 5, `Page ${i}`, sqlDate(date)])));
    // Captures go to the writer a few hundred at a time, as a crawl's many fetches do.
    if (pending.length >= 256) {
      await Promise.all(pending);
      pending = [];
      commit();
    }
  }
  await Promise.all(pending);
  commit();
  await writer.close();
  db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
}
