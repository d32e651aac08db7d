/**
 * Ctrl-C while `tidemark crawl --wacz` packages the finished crawl. Before, the first SIGINT only
 * paused the (finished) engine and the packaging went on to exit 0, and a second one ended the
 * process with `crawl.wacz.open` and `crawl.wacz.pages.jsonl` left in --out. Now the first stops the
 * packaging: no package and no partial file, the WARC files and index as they were, exit code 3
 * (interrupted), and the same command run again writes the package.
 *
 * Timing-free: the package's temporary file is made a FIFO before the crawl, so the test holds the
 * packaging at its first bytes (it reads them from the FIFO), signals, then reads on to let the
 * CLI's writes go. Real parts: the CLI as a child process, a loopback site, the files in --out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { startFixtureSite } from '../../support/fixture-site';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';

const digests = (out: string) =>
  Object.fromEntries(readdirSync(out).filter((n) => n.endsWith('.warc.gz') || n === 'index.cdxj').sort().map((n) => [n, createHash('sha256').update(readFileSync(join(out, n))).digest('hex')]));

test('SIGINT while the WACZ is being packaged leaves no package nor partial file, the WARC files whole, exit code 3', { timeout: 90_000 }, async () => {
  // A package larger than what the FIFO's first read and its pipe buffer (64 KiB) take, so the CLI
  // is still writing it when the SIGINT comes: with 12 pages (~10 KB) it could write the whole
  // package before the signal landed, and a loaded CI run saw it finish (exit 0).
  const site = await startFixtureSite({ pageCount: 400 });
  try {
    await withTempDir('tm-cli-wacz-interrupt-', async (out) => {
      execFileSync('mkfifo', [join(out, 'crawl.wacz.open')]);
      const args = ['crawl', '--seed', `${site.origin}/`, '--out', out, '--no-politeness', '--wacz'];
      const run = runCli(args);
      // Opens once the CLI opens the package's temporary file for writing: the crawl is over then.
      const fifo = await Promise.race([open(join(out, 'crawl.wacz.open'), 'r'), run.done.then((r) => Promise.reject(new Error(`the CLI ended first: ${r.code}\n${r.stderr}`)))]);
      try {
        const first = await fifo.read(Buffer.alloc(4096), 0, 4096, null);
        assert.ok(first.bytesRead > 0, 'the packaging is writing');
        const before = digests(out);
        assert.ok(Object.keys(before).some((n) => n.endsWith('.warc.gz')), 'the crawl wrote WARC files');
        run.child.kill('SIGINT');
        // Read on until the CLI closes its end, so its writes under way complete.
        for (let r = first; r.bytesRead > 0; ) r = await fifo.read(Buffer.alloc(65536), 0, 65536, null);
        const stopped = await run.done;
        assert.equal(stopped.code, 3, `exit code 3, interrupted (stderr: ${stopped.stderr.slice(-1000)})`);
        assert.match(stopped.stderr, /the WACZ package could not be written: interrupted/);
        assert.deepEqual(readdirSync(out).filter((n) => n.startsWith('crawl.wacz')), [], 'no package, no partial file');
        assert.deepEqual(digests(out), before, 'the WARC files and the index as they were');
      } finally {
        await fifo.close();
      }
      const checked = await runCli(['check', out]).done;
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);

      // The same command again packages the finished crawl.
      const again = await runCli(args).done;
      assert.equal(again.code, 0, again.stderr);
      assert.ok(readdirSync(out).includes('crawl.wacz'));
      const packaged = await runCli(['check', join(out, 'crawl.wacz')]).done;
      assert.equal(packaged.code, 0, packaged.stdout + packaged.stderr);
    });
  } finally {
    await site.close();
  }
});

test('a second SIGINT while the package is held ends the CLI at once (130), leaving no partial package', { timeout: 90_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 4 });
  try {
    await withTempDir('tm-cli-wacz-abort-', async (out) => {
      execFileSync('mkfifo', [join(out, 'crawl.wacz.open')]);
      const run = runCli(['crawl', '--seed', `${site.origin}/`, '--out', out, '--no-politeness', '--wacz']);
      let stderr = '';
      run.child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
      const fifo = await Promise.race([open(join(out, 'crawl.wacz.open'), 'r'), run.done.then((r) => Promise.reject(new Error(`the CLI ended first: ${r.code}\n${r.stderr}`)))]);
      try {
        assert.ok((await fifo.read(Buffer.alloc(4096), 0, 4096, null)).bytesRead > 0, 'the packaging is writing');
        // Not read further: the CLI's writes wait on the FIFO, and the first SIGINT cannot end the packaging.
        run.child.kill('SIGINT');
        // The second once the first was taken (two signals at once may arrive as one).
        while (!stderr.includes('tidemark: interrupted')) await new Promise((r) => run.child.stderr!.once('data', r));
        run.child.kill('SIGINT');
        const ended = await run.done;
        assert.equal(ended.code, 130, ended.stderr);
        assert.deepEqual(readdirSync(out).filter((n) => n.startsWith('crawl.wacz')), [], 'no package, no partial file');
      } finally {
        await fifo.close();
      }
      const checked = await runCli(['check', out]).done;
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    });
  } finally {
    await site.close();
  }
});
