/**
 * WAL checkpoints off the crawl's thread. SQLite checkpoints on the connection whose commit takes
 * the WAL past `wal_autocheckpoint` frames: it copies the WAL into the database and fsyncs both,
 * and the fsync waits for the disk to take every page written since the last one. In the
 * politeness benchmark's crawl (~85 MB of WAL for 5,000 pages) that stalled the crawl's thread
 * 70–80 ms twice a crawl (`perf trace`: the fsync of the WAL), every host's timer waiting behind
 * it; on a slower disk it would be longer. Here a thread of its own, with its own connection, runs
 * a PASSIVE checkpoint every `everyMs`, which never blocks the writer, and the crawl's connection
 * keeps its autocheckpoint (openSqlite's) only as a fallback for a WAL this thread cannot keep
 * small. The crawl's thread is left one fsync of the WAL's header each time the WAL starts again.
 */
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

/** How often the thread checkpoints: ~7 MB of WAL at a time in the politeness benchmark's crawl. */
export const CHECKPOINT_EVERY_MS = 500;

/**
 * The thread's code, evaluated as a script (no second file to bundle or resolve).
 *
 * A checkpoint copies the frames committed when it began. The WAL starts again from its beginning
 * (instead of growing until the crawl's own autocheckpoint) only when a writer begins while every
 * frame is copied, so the thread checkpoints again at once, up to CATCH_UP_TRIES times, until one
 * finds no frame committed meanwhile (each one more has only those few frames to copy).
 * `synchronous = NORMAL` as the crawl's connection has it: a checkpoint fsyncs, so the pages it
 * copied are on disk before the WAL is reused.
 */
const CATCH_UP_TRIES = 8;
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true, timeout: 0 });
db.pragma('synchronous = NORMAL');
db.pragma('wal_autocheckpoint = 0');
function checkpoint() {
  let last = null;
  for (let i = 0; i < ${CATCH_UP_TRIES}; i++) {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    const caughtUp = last !== null && r.log === last.log && r.checkpointed >= r.log;
    last = r;
    if (caughtUp) break;
  }
  return { log: last.log, checkpointed: last.checkpointed };
}
const timer = setInterval(() => {
  try {
    const r = checkpoint();
    if (workerData.report) parentPort.postMessage(r);
  } catch {
    // SQLITE_BUSY: another connection is checkpointing (the cockpit's server, say). The next turn tries again.
  }
}, workerData.everyMs);
parentPort.on('message', (msg) => {
  if (msg !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** What one round of checkpoints left: frames in the WAL and frames of them copied into the database (SQLite's counts). */
export interface CheckpointResult {
  log: number;
  checkpointed: number;
}

export interface WalCheckpointer {
  /** Stops the thread once its checkpoint under way is over, its connection closed. */
  stop(): Promise<void>;
}

/**
 * Checkpoints the WAL of `db` (a file database in WAL mode, as openSqlite opens them) from a
 * thread of its own every `everyMs`. `onCheckpoint` hears each round's counts.
 */
export function startWalCheckpointer(db: Database.Database, opts: { everyMs?: number; onCheckpoint?: (r: CheckpointResult) => void } = {}): WalCheckpointer {
  const { everyMs = CHECKPOINT_EVERY_MS, onCheckpoint } = opts;
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    // It runs almost no JavaScript: ~8 MB of memory with these limits.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 },
    workerData: { driver: fileURLToPath(import.meta.resolve('better-sqlite3')), path: db.name, everyMs, report: Boolean(onCheckpoint) },
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  if (onCheckpoint) worker.on('message', onCheckpoint);
  // A thread that cannot start (no memory for another isolate, say) leaves the checkpoints to the crawl's connection, as before.
  worker.on('error', (err) => console.error(`tidemark: the WAL checkpoint thread stopped (${err.message}); the crawl's thread checkpoints instead`));
  // The process ends when its work does, whatever this thread is doing. After the listeners: adding a
  // 'message' listener refs the thread again.
  worker.unref();
  let stopping: Promise<void> | null = null;
  return {
    stop() {
      // Referenced again: the process waits for the thread to close its connection.
      stopping ??= (worker.ref(), worker.postMessage('stop'), exited);
      return stopping;
    },
  };
}
