import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSqlite } from '../../../worker/store/sqlite';
import { startWalCheckpointer, type CheckpointResult } from '../../../worker/store/wal-checkpointer';

const REPO = resolve(import.meta.dirname, '../../..');

/** Resolves with the first round of checkpoints, from now on, that `pass` accepts. */
function nextRound(rounds: CheckpointResult[], pass: (r: CheckpointResult) => boolean, timeoutMs = 10_000): Promise<CheckpointResult> {
  const from = rounds.length;
  const deadline = Date.now() + timeoutMs;
  return (async () => {
    for (;;) {
      const found = rounds.slice(from).find(pass);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no such checkpoint within ${timeoutMs} ms: ${JSON.stringify(rounds.slice(from))}`);
      await sleep(10);
    }
  })();
}

test("a thread checkpoints the WAL below the writer's own autocheckpoint, the WAL starts again, and stopping it lets the writer's close remove the WAL", async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'tm-wal-')), 'state.db');
  const db = openSqlite(path);
  db.exec('CREATE TABLE page (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
  const ownLimit = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  const rounds: CheckpointResult[] = [];
  const checkpointer = startWalCheckpointer(db, { everyMs: 20, onCheckpoint: (r) => rounds.push(r) });
  const insert = db.prepare('INSERT INTO page (body) VALUES (?)');
  const body = Buffer.alloc(16 * 1024, 7);
  // A commit every millisecond or so, ~5 pages of WAL each: 400 of them, and more (up to 1,800) until
  // the WAL has started again, which a loaded machine's scheduling may put off; ~9,000 frames at
  // most, below the writer's own autocheckpoint (10,000).
  const restarted = () => rounds.some((r, i) => i > 0 && r.log < rounds[i - 1]!.log);
  let written = 0;
  while (written < 400 || (written < 1800 && !restarted())) {
    insert.run(body);
    written++;
    await sleep(1);
  }
  const framesWritten = written * 5;
  const whileWriting = rounds.slice();
  // Frames committed during a checkpoint are copied by the next ones at once, so the WAL starts again even while the writer goes on.
  assert.ok(whileWriting.some((r, i) => i > 0 && r.log < whileWriting[i - 1].log), `the WAL started again while written: ${JSON.stringify(whileWriting)}`);
  assert.ok(framesWritten < ownLimit, 'the writer alone would not have checkpointed');
  // With the writer idle, a round copies every frame.
  let caughtUp = await nextRound(rounds, (r) => r.log > 0 && r.checkpointed === r.log);
  assert.ok(statSync(path).size > 3 * 1024 * 1024, `the pages are in the database file (${statSync(path).size} bytes), not only in the WAL`);
  // The next commit finds every frame copied and writes the WAL from its beginning again, unless
  // the thread's checkpoint holds its read of the WAL at that moment (ci103: 6 frames, then 7, on a
  // loaded machine): then the commit after the next round that copies everything does.
  const tries: string[] = [];
  let restartedAfterIdle = false;
  for (let i = 0; i < 20 && !restartedAfterIdle; i++) {
    insert.run(body);
    written++;
    const after = await nextRound(rounds, (r) => r.log > 0 && r.checkpointed === r.log);
    tries.push(`${caughtUp.log} frames, then ${after.log}`);
    restartedAfterIdle = after.log < caughtUp.log && after.log <= 10;
    caughtUp = after;
  }
  assert.ok(restartedAfterIdle, `the WAL started again (${tries.join('; ')})`);
  assert.equal(db.prepare('SELECT COUNT(*) FROM page').pluck().get(), written);

  await checkpointer.stop();
  await checkpointer.stop(); // a second stop is the same one
  db.close();
  // The thread's connection is closed: the writer's was the last, and SQLite removes the WAL with it.
  assert.equal(existsSync(`${path}-wal`), false);
});

test('a thread that cannot open the database says so and ends, and the writer goes on', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'tm-wal-')), 'state.db');
  const db = openSqlite(path);
  db.exec('CREATE TABLE t (a)');
  // Its file removed under it (the data folder deleted, say): the writer still holds it open, the thread cannot open it.
  unlinkSync(path);
  const errors: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args.join(' '));
  try {
    await startWalCheckpointer(db, { everyMs: 20 }).stop();
  } finally {
    console.error = original;
  }
  assert.match(errors.join('\n'), /the WAL checkpoint thread stopped/);
  db.prepare('INSERT INTO t VALUES (1)').run();
  assert.equal(db.prepare('SELECT COUNT(*) FROM t').pluck().get(), 1);
  db.close();
});

test('a process whose crawl is over ends with the thread still running, heard or not', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'tm-wal-')), 'state.db');
  for (const heard of [false, true]) {
    // The thread is left running, as by a crawl that fails before it stops it: the process must end all the same.
    const code = `import { openSqlite } from './worker/store/sqlite.ts';
      import { startWalCheckpointer } from './worker/store/wal-checkpointer.ts';
      startWalCheckpointer(openSqlite(${JSON.stringify(path)}), { everyMs: 10, onCheckpoint: ${heard ? '() => {}' : 'undefined'} });`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: REPO, timeout: 30_000, encoding: 'utf8' });
    assert.equal(run.signal, null, `the process did not end by itself (heard: ${heard})`);
    assert.equal(run.status, 0, run.stderr);
  }
});
