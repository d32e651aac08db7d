/**
 * objects.jsonl is appended after a page's commit. The CLI killed (SIGKILL) between the two used to
 * leave the committed objects out of the file for good; the resumed crawl now appends them, and
 * every object stored in the database is in the file exactly once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { startForumBoard } from './forum-board';
import { objectLine } from '../../../worker/crawler/objects-jsonl';

const fileLines = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);

function storedLines(out: string): string[] {
  if (!existsSync(join(out, 'tidemark-state.db'))) return [];
  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT type, url, fields FROM WebObject ORDER BY id').all() as { type: string; url: string; fields: string }[];
    return rows.map((r) => objectLine({ type: r.type, url: r.url, fields: JSON.parse(r.fields) }));
  } catch {
    return []; // the tables are not there yet
  } finally {
    db.close();
  }
}

test('SIGKILL between a page\'s commit and the append of its objects: the resumed crawl writes them, each once', { timeout: 180_000 }, async () => {
  const board = await startForumBoard();
  const out = mkdtempSync(join(tmpdir(), 'tm-objects-crash-'));
  const objectsJsonl = join(out, 'objects.jsonl');
  const args = ['crawl', '--seed', `${board.origin}/`, '--out', out, '--no-politeness', '--concurrency', '1', '--json'];
  try {
    // Each page's objects wait a minute after its commit: the kill lands in that window.
    const first = runCli(args, { env: { TIDEMARK_TEST_OBJECTS_WRITE_DELAY_MS: '60000' } });
    const deadline = Date.now() + 90_000;
    while (storedLines(out).length === 0 && Date.now() < deadline) await sleep(50);
    first.child.kill('SIGKILL');
    const killed = await first.done;
    assert.equal(killed.signal, 'SIGKILL', killed.stderr.slice(-500));
    const committed = storedLines(out);
    assert.ok(committed.length > 0, 'objects were committed before the kill');
    assert.deepEqual(fileLines(objectsJsonl), [], 'and none reached objects.jsonl');

    const second = await runCli(args).done;
    assert.equal(second.code, 0, second.stderr);
    assert.equal(JSON.parse(second.stdout.trim().split('\n').pop()!).outcome, 'finished');
    const stored = storedLines(out);
    for (const line of committed) assert.ok(stored.includes(line), 'the objects committed before the kill are still stored');
    assert.deepEqual(fileLines(objectsJsonl).sort(), stored.sort(), 'objects.jsonl holds every stored object exactly once');
    assert.equal(new Set(stored).size, stored.length, 'no object stored twice');
  } finally {
    await board.close();
    rmSync(out, { recursive: true, force: true });
  }
});

test('objects.jsonl that cannot be appended to: the crawl finishes, its objects kept in the database, said once', { timeout: 180_000 }, async () => {
  const board = await startForumBoard();
  const out = mkdtempSync(join(tmpdir(), 'tm-objects-unwritable-'));
  // A folder where the file should be: every append fails (EISDIR), as on a full disk.
  mkdirSync(join(out, 'objects.jsonl'));
  try {
    const run = await runCli(['crawl', '--seed', `${board.origin}/`, '--out', out, '--no-politeness', '--concurrency', '1', '--json']).done;
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout.trim().split('\n').pop()!).outcome, 'finished');
    assert.ok(storedLines(out).length > 1, 'objects were found and committed');
    assert.equal(run.stderr.match(/cannot append to .*objects\.jsonl/g)?.length, 1, run.stderr.slice(-1000));
  } finally {
    await board.close();
    rmSync(out, { recursive: true, force: true });
  }
});
