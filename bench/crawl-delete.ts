/**
 * Deleting a crawl of CAPTURES captures (default 1,000,000; a log entry each, a web object and an
 * annotation on every tenth, as many coherence pages and frontier URLs) while another process
 * writes a row every 20 ms, as a running crawl's worker does: one transaction cascading from the
 * crawl's row (before), against the crawl's row deleted and its rows in batches (CrawlDeletions'
 * deleteCrawlRows). Prints the time in all, the longest transaction, and the other process's writes:
 * how many, the longest wait for the write lock (BEGIN IMMEDIATE), how many failed ("database is
 * locked" after its 10 s busy timeout).
 *   CAPTURES=1000000 npm run bench:crawl-delete
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { insertCrawl, insertCrawlRows, migratedDatabase } from '../test/support/crawl-rows';
import { icdSchema } from '../worker/icd/schema';
import { openSqlite } from '../worker/store/sqlite';
import { deleteCrawlRow } from '../worker/process/crawl-requests';
import { deleteCrawlRows } from '../worker/process/crawl-deletion';

const captures = Number(process.env.CAPTURES ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'tidemark-bench-delete-'));
const icd = icdSchema.parse({ name: 'Harbour', seeds: ['http://127.0.0.1:9/'] });

// A writer in its own process, as the worker of another crawl: a row every 20 ms, each write's wait.
const WRITER = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.pragma('busy_timeout = 10000');
db.pragma('wal_autocheckpoint = 0');
const begin = db.prepare('BEGIN IMMEDIATE');
const commit = db.prepare('COMMIT');
const insert = db.prepare("INSERT INTO CrawlLogEntry (crawlId, url, outcome, at) VALUES (?, 'http://h.test/w', 'fetched', datetime('now'))");
const waits = []; let failed = 0; let stop = false;
process.on('message', () => { stop = true; });
(async () => {
  process.send('ready');
  while (!stop) {
    const t = performance.now();
    try { begin.run(); waits.push(performance.now() - t); insert.run(Number(process.argv[2])); commit.run(); } catch { failed++; }
    await new Promise((r) => setTimeout(r, 20));
  }
  db.close();
  process.send({ writes: waits.length, longestMs: Math.max(0, ...waits), failed }, () => process.disconnect());
})();`;

async function withWriter<T>(path: string, keptId: number, body: () => Promise<T>): Promise<{ result: T; writer: { writes: number; longestMs: number; failed: number } }> {
  const child = spawn(process.execPath, ['-e', WRITER, path, String(keptId)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], cwd: process.cwd() });
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  await new Promise((r) => setTimeout(r, 200));
  const result = await body();
  await new Promise((r) => setTimeout(r, 200));
  const report = new Promise<{ writes: number; longestMs: number; failed: number }>((resolve) => child.once('message', (m) => resolve(m as never)));
  child.send('stop');
  return { result, writer: await report };
}

const source = join(dir, 'state.db');
const db = migratedDatabase(dir);
const deleted = insertCrawl(db, icd);
const kept = insertCrawl(db, icd);
db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop'").run();
let t = performance.now();
insertCrawlRows(db, kept, 20_000);
insertCrawlRows(db, deleted, captures);
db.pragma('wal_checkpoint(TRUNCATE)');
db.close();
console.log(`built ${captures.toLocaleString('en')} captures' rows in ${((performance.now() - t) / 1000).toFixed(1)} s`);

for (const way of ['one transaction (before)', 'in batches (now)']) {
  const copy = join(dir, `${way.startsWith('one') ? 'before' : 'now'}.db`);
  copyFileSync(source, copy);
  const conn = openSqlite(copy);
  // Checkpoints from a connection of their own, as the crawl processes' checkpointer thread does: a
  // commit that checkpoints holds no lock, but it would count in the statement's time here.
  conn.pragma('wal_autocheckpoint = 0');
  const checkpointer = openSqlite(copy);
  checkpointer.pragma('wal_autocheckpoint = 0');
  const checkpoints = setInterval(() => checkpointer.pragma('wal_checkpoint(PASSIVE)'), 1000);
  const { result, writer } = await withWriter(copy, kept, async () => {
    t = performance.now();
    if (way.startsWith('one')) {
      conn.prepare('DELETE FROM Crawl WHERE id = ?').run(deleted);
      const cascade = performance.now() - t;
      // Then the coherence rows, a statement a table (deleteCoherenceData), and the frontier's in batches with a turn of the event loop between.
      const coherence = performance.now();
      conn.prepare('DELETE FROM CoherencePage WHERE crawlId = ?').run(deleted);
      const coherenceMs = performance.now() - coherence;
      const rows = await deleteCrawlRows(conn, deleted, () => nextTurn());
      return { totalMs: performance.now() - t, longestMs: Math.max(cascade, coherenceMs, rows.longestMs), statements: rows.statements + 2 };
    }
    deleteCrawlRow(conn, deleted);
    const first = performance.now() - t;
    const rows = await deleteCrawlRows(conn, deleted);
    return { totalMs: performance.now() - t, longestMs: Math.max(first, rows.longestMs), statements: rows.statements + 1 };
  });
  clearInterval(checkpoints);
  checkpointer.close();
  conn.close();
  console.log(
    `${way}: ${(result.totalMs / 1000).toFixed(1)} s in all, longest transaction ${result.longestMs.toFixed(0)} ms (${result.statements} statements); ` +
      `other process: ${writer.writes} writes, longest wait for the lock ${writer.longestMs.toFixed(0)} ms, ${writer.failed} failed`,
  );
  rmSync(copy, { force: true });
}
rmSync(dir, { recursive: true, force: true });
