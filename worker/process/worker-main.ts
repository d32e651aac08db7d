/**
 * The crawl worker process, forked and supervised by server.ts. It runs every active crawl and
 * the export jobs; all state lives in SQLite and the WARC files, so a restart resumes.
 */
import { resolve } from 'node:path';
import { loadEnv } from '../config/env';
import { openSqlite } from '../store/sqlite';
import type { ServerMessage, WorkerMessage } from '../events/messages';
import { CrawlManager } from './crawl-manager';
import { boundRegExpBacktracking } from './bounded-regexp';

boundRegExpBacktracking();

const env = loadEnv();
const db = openSqlite(env.dbPath);
const send = (message: WorkerMessage) => {
  if (process.connected) process.send?.(message);
};
const manager = new CrawlManager({ db, dataDir: env.dataDir, send, kbPath: resolve('knowledge-base/default.xml') });

process.on('message', (message: ServerMessage) => {
  if (message.type === 'poke') manager.poke();
  if (message.type === 'shutdown') void manager.shutdown().then(() => process.exit(0));
});
process.on('disconnect', () => void manager.shutdown().then(() => process.exit(0)));

manager.start();
send({ type: 'ready', pid: process.pid });
