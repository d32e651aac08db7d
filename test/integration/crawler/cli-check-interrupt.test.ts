/**
 * Ctrl-C while `tidemark check` reads a large WARC file. Before, the check set no handler: a SIGINT
 * killed the process by the signal, without the exit code 3 and the "interrupted" message the CLI
 * gives elsewhere (`crawl`, `--wacz`), and nothing said where it stopped. Now the first SIGINT stops
 * the reading within the file, the report says which file it was reading and how many were done,
 * and the exit code is 3; a second one ends it at once (130).
 *
 * Real parts: a 200 MB WARC file written by the crawl's own writer, the CLI as a child process. How
 * far it read is taken from the kernel's count of the bytes it read (/proc/PID/io, `rchar`): the
 * check reads a file twice, so a whole check reads at least twice its size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeLargeWarcs } from '../../support/large-warcs';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';

/** A WARC file of `records` responses of 1 MB each (writeLargeWarcs); its path. */
async function largeWarc(dir: string, records: number): Promise<string> {
  return join(dir, (await writeLargeWarcs(dir, 'hull', records))[0]!);
}

/** Bytes the process has read so far (files and pipes), or null once it is gone. */
function bytesRead(pid: number): number | null {
  try {
    return Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1]);
  } catch {
    return null;
  }
}

test('SIGINT while tidemark check reads a large WARC file stops it within the file: exit code 3, where it stopped said', { timeout: 120_000 }, async () => {
  await withTempDir('tm-cli-check-interrupt-', async (dir) => {
    const warc = await largeWarc(dir, 200);
    const size = statSync(warc).size;
    // The CLI's bundle built beforehand, so the check's own start is quick.
    assert.equal((await runCli(['--help']).done).code, 0);

    const run = runCli(['check', warc]);
    const pid = run.child.pid!;
    let exited = false;
    void run.done.then(() => (exited = true));
    let read = 0;
    // Signalled once it has read a quarter of the file's two passes (far more than its start reads).
    while (!exited && read < size / 2) {
      read = bytesRead(pid) ?? read;
      await sleep(5);
    }
    assert.ok(!exited, 'the check is still reading the file');
    run.child.kill('SIGINT');
    let lastSeen = read;
    while (!exited) {
      lastSeen = bytesRead(pid) ?? lastSeen;
      await sleep(5);
    }
    const ended = await run.done;
    assert.equal(ended.signal, null, `ended by itself, not killed by the signal (${ended.signal})`);
    assert.equal(ended.code, 3, `exit code 3, interrupted (stderr: ${ended.stderr})`);
    assert.match(ended.stderr, /tidemark: interrupted, stopping the check/);
    assert.match(ended.stdout, new RegExp(`interrupted while checking ${warc.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 0 of 1 file checked`));
    assert.doesNotMatch(ended.stdout, /^ok|all pass/m, 'no verdict on a file not read to its end');
    assert.ok(lastSeen < 2 * size, `stopped before reading the file through (${lastSeen} of ${2 * size} bytes read)`);

    // Not interrupted, the same file passes: the stop came from the signal, not from the file.
    const whole = await runCli(['check', '--json', warc]).done;
    assert.equal(whole.code, 0, whole.stdout + whole.stderr);
  });
});

test('SIGINT during tidemark check --json prints the files done and where it stopped, as JSON', { timeout: 120_000 }, async () => {
  await withTempDir('tm-cli-check-interrupt-json-', async (dir) => {
    const warc = await largeWarc(dir, 120);
    const size = statSync(warc).size;
    const run = runCli(['check', '--json', warc]);
    const pid = run.child.pid!;
    let exited = false;
    void run.done.then(() => (exited = true));
    for (let read = 0; !exited && read < size / 2; await sleep(5)) read = bytesRead(pid) ?? read;
    assert.ok(!exited, 'the check is still reading the file');
    run.child.kill('SIGINT');
    const ended = await run.done;
    assert.equal(ended.code, 3, ended.stderr);
    const report = JSON.parse(ended.stdout) as { ok: boolean; interrupted: string; files: unknown[] };
    assert.equal(report.ok, false);
    assert.match(report.interrupted, /^interrupted while checking .*: 0 of 1 file checked$/);
    assert.deepEqual(report.files, []);
  });
});
