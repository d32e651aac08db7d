/**
 * The cockpit's data lock is held by the server process, and the system drops it the moment the
 * server dies; its crawl worker, a child of its own, then finishes the pages under way before it
 * exits (up to HALT_GRACE_MS). A server started again at once (a service manager restarting it)
 * forks a second worker on the same folder while the first still writes: both ran the same crawl,
 * the second one recovering (renaming and cutting) the WARC file the first still appended to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { icdSchema } from '../../../worker/icd/schema';
import { applyMigrations } from '../../../worker/store/migrator';
import { openSqlite, sqlDate } from '../../../worker/store/sqlite';

/** An ICD and a crawl of it, stored as the cockpit stores them: the worker starts it. */
function storedCrawl(db: ReturnType<typeof openSqlite>, icd: ReturnType<typeof icdSchema.parse>): number {
  const now = sqlDate(new Date());
  const icdId = db.prepare('INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES (?, ?, ?, ?)').run(icd.name, JSON.stringify(icd), now, now).lastInsertRowid;
  return Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, ?, ?, 'created', 'run', ?)").run(icdId, JSON.stringify(icd), icd.name, now).lastInsertRowid);
}

test('a crawl worker starts on a data folder only once the worker before it has ended', { timeout: 120_000 }, async () => {
  let inFlight = 0;
  // Every page answers after 3 s: the first worker has fetches under way when it is told to go.
  const site = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    inFlight++;
    setTimeout(() => {
      res.setHeader('content-type', 'text/html');
      res.end(Array.from({ length: 20 }, (_, i) => `<a href="/p/${Math.random()}-${i}">p</a>`).join(' '));
    }, 3000);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const dir = mkdtempSync(join(tmpdir(), 'tm-worker-lock-'));
  const workers: ChildProcess[] = [];
  const db = openSqlite(join(dir, 'tidemark.db'));
  try {
    applyMigrations(db, resolve('prisma/migrations'));
    const icd = icdSchema.parse({ name: 'Slow', seeds: [`http://127.0.0.1:${(site.address() as AddressInfo).port}/`], politeness: { enabled: false, concurrency: 4 } });
    const crawlId = storedCrawl(db, icd);
    // As the server's supervisor forks it.
    const startWorker = () => {
      const child = fork(resolve('worker/process/worker-main.ts'), [], {
        execArgv: ['--import', 'tsx'], env: { ...process.env, TIDEMARK_DATA_DIR: dir, TIDEMARK_DB: join(dir, 'tidemark.db') }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      workers.push(child);
      return child;
    };
    const runsBy = (pid: number | undefined) => db.prepare('SELECT COUNT(*) FROM CrawlRun WHERE crawlId = ? AND workerPid = ?').pluck().get(crawlId, pid) as number;

    const first = startWorker();
    for (const end = Date.now() + 60_000; !(runsBy(first.pid) > 0 && inFlight > 0); await sleep(50)) if (Date.now() > end) throw new Error('the first worker never fetched');
    // The server dies (kill -9): its worker loses the IPC channel and finishes what it has under way.
    first.disconnect();
    const firstExited = new Promise((r) => first.once('exit', r));
    const second = startWorker();
    for (const end = Date.now() + 60_000; runsBy(second.pid) === 0; await sleep(20)) {
      if (Date.now() > end) throw new Error('the second worker never ran the crawl');
    }
    assert.notEqual(first.exitCode ?? first.signalCode, null, 'the first worker had ended when the second ran the crawl');
    await firstExited;
  } finally {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    db.close();
    site.closeAllConnections();
    site.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a worker whose server went away while it was still loading exits, leaving the data folder to the next one', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-worker-orphan-'));
  const db = openSqlite(join(dir, 'tidemark.db'));
  applyMigrations(db, resolve('prisma/migrations'));
  db.close();
  const fork1 = () => fork(resolve('worker/process/worker-main.ts'), [], {
    execArgv: ['--import', 'tsx'], env: { ...process.env, TIDEMARK_DATA_DIR: dir, TIDEMARK_DB: join(dir, 'tidemark.db') }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const workers: ChildProcess[] = [];
  try {
    // The server stops (or dies) before the worker's own code has run: the channel closes at once.
    const orphan = fork1();
    workers.push(orphan);
    orphan.disconnect();
    const exited = await Promise.race([new Promise((r) => orphan.once('exit', () => r(true))), sleep(30_000).then(() => false)]);
    assert.equal(exited, true, 'the worker exited (the old code lived on, holding the worker lock)');
    // The next worker of the folder starts at once rather than waiting for it.
    const next = fork1();
    workers.push(next);
    let out = '';
    next.stdout!.on('data', (d) => (out += d));
    const ready = await Promise.race([new Promise((r) => next.once('message', (m: { type?: string }) => r(m.type === 'ready'))), sleep(30_000).then(() => false)]);
    assert.equal(ready, true, `the next worker is ready; its output: ${out}`);
    assert.doesNotMatch(out, /waiting/);
  } finally {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

// Found by an exploratory session: Ctrl-C on `npm start` signals the whole process group, the worker
// too, which had no handler and died at once: its crawl's run kept no end (run time and pages/s wrong).
test('a worker sent SIGINT (Ctrl-C on the whole group) shuts down as the server asks it to: its crawl runs end recorded', { timeout: 120_000 }, async () => {
  const site = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    // Slow pages: the crawl is still running when the signal comes.
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(Array.from({ length: 20 }, (_, i) => `<a href="/p/${Math.random()}-${i}">p</a>`).join(' ')), 500);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const dir = mkdtempSync(join(tmpdir(), 'tm-worker-sigint-'));
  const db = openSqlite(join(dir, 'tidemark.db'));
  let worker: ChildProcess | undefined;
  try {
    applyMigrations(db, resolve('prisma/migrations'));
    const icd = icdSchema.parse({ name: 'Interrupted', seeds: [`http://127.0.0.1:${(site.address() as AddressInfo).port}/`], politeness: { enabled: false, concurrency: 2 } });
    const crawlId = storedCrawl(db, icd);
    worker = fork(resolve('worker/process/worker-main.ts'), [], {
      execArgv: ['--import', 'tsx'], env: { ...process.env, TIDEMARK_DATA_DIR: dir, TIDEMARK_DB: join(dir, 'tidemark.db') }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const captured = () => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(crawlId) as number;
    for (const end = Date.now() + 60_000; captured() < 2; await sleep(50)) if (Date.now() > end) throw new Error('the worker never captured a page');
    const exited = new Promise<number | null>((r) => worker!.once('exit', (code) => r(code)));
    worker.kill('SIGINT');
    assert.equal(await exited, 0, 'it exited on its own, after its shutdown');
    const runs = db.prepare('SELECT endedAt FROM CrawlRun WHERE crawlId = ?').all(crawlId) as { endedAt: string | null }[];
    assert.equal(runs.length, 1);
    assert.notEqual(runs[0]!.endedAt, null, 'the run has its end (the old worker died with none)');
  } finally {
    if (worker && worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    db.close();
    site.closeAllConnections();
    site.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
