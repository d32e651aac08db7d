/**
 * The crawl worker process, forked and supervised by server.ts. It runs every active crawl and
 * the export jobs; all state lives in SQLite and the WARC files, so a restart resumes.
 */
import { loadEnv } from '../config/env';
import { openSqlite } from '../store/sqlite';
import { startWalCheckpointer, type WalCheckpointer } from '../store/wal-checkpointer';
import type { ServerMessage, WorkerMessage } from '../events/messages';
import { CrawlManager } from './crawl-manager';
import { boundRegExpBacktracking } from './bounded-regexp';
import { WORKER_LOCK_FILE, waitForDataLock } from '../store/data-lock';
import { DEFAULT_KB_PATH } from '../aah/default-kb';

boundRegExpBacktracking();

const env = loadEnv();
const send = (message: WorkerMessage) => {
  if (process.connected) process.send?.(message);
};
let manager: CrawlManager | null = null;
let checkpointer: WalCheckpointer | null = null;
let exiting: Promise<void> | null = null;
const exit = () => void (exiting ??= (manager?.shutdown() ?? Promise.resolve()).then(() => checkpointer?.stop()).then(() => process.exit(0)));

process.on('message', (message: ServerMessage) => {
  if (message.type === 'poke') manager?.poke();
  if (message.type === 'shutdown') exit();
});
process.on('disconnect', exit);
// Ctrl-C in the terminal of `npm start` (or a service manager stopping the whole group) signals this
// process too: without a handler it died at once, its runs' ends unrecorded (a crawl's run time and
// pages/s then wrong), while the server asked it to shut down. It shuts down as that asks.
process.on('SIGINT', exit);
process.on('SIGTERM', exit);
// A server that ended while this process was still loading (its modules take seconds on a busy
// machine) closed the channel before the listener above existed: no 'disconnect' will come, and
// the worker would live on alone, holding the data folder's worker lock from every later worker.
if (!process.connected) exit();

// One worker per data folder: the worker of a server that died (the server's own lock went with
// it) may still be finishing its pages; this one starts once that one has ended.
void waitForDataLock(env.dataDir, 'the crawl worker', WORKER_LOCK_FILE, (held) => console.log(`tidemark worker: waiting: ${held}`)).then(() => {
  if (!process.connected) return; // its server has gone meanwhile: exit() runs
  const db = openSqlite(env.dbPath);
  // Off the crawl thread: a checkpoint fsyncs the WAL, and every host timer would wait for it.
  checkpointer = startWalCheckpointer(db);
  manager = new CrawlManager({ db, dataDir: env.dataDir, send, kbPath: DEFAULT_KB_PATH, minuteMs: env.TIDEMARK_TEST_MINUTE_MS, aahBudgetMs: env.TIDEMARK_TEST_AAH_BUDGET_MS });
  manager.start();
  send({ type: 'ready', pid: process.pid });
});
