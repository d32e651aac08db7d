import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../support/run-cli';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Two crawls on one --out ran the same frontier into the same folder, the second cutting the
// first's open WARC file back as a torn tail when it started.
test('a second crawl on the same --out is refused while the first runs, and a crawl after a SIGKILL goes on at once', { timeout: 120_000 }, async () => {
  let slow = true;
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    const page = () => res.end(req.url === '/' ? '<a href="/a">a</a> <a href="/b">b</a>' : '<p>leaf</p>');
    if (slow) setTimeout(page, 30_000);
    else page();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const seed = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const dir = mkdtempSync(join(tmpdir(), 'tm-cli-lock-'));
  const out = join(dir, 'out');
  try {
    const first = runCli(['crawl', '--seed', seed, '--out', out, '--json']);
    for (let i = 0; i < 200 && !existsSync(join(out, 'tidemark.lock.holder.json')); i++) await sleep(50);
    const second = await runCli(['crawl', '--seed', seed, '--out', out, '--json']).done;
    assert.equal(second.code, 2, second.stderr);
    assert.match(second.stderr, new RegExp(`^Cannot use --out .*: .* is in use by a tidemark crawl \\(process ${first.child.pid}, since [^)]+\\): two Tidemark processes on one data folder`));

    first.child.kill('SIGKILL');
    assert.equal((await first.done).signal, 'SIGKILL');
    slow = false;
    const third = await runCli(['crawl', '--seed', seed, '--out', out, '--json']).done;
    assert.equal(third.code, 0, third.stderr);
    assert.equal((JSON.parse(third.stdout) as { outcome: string }).outcome, 'finished');
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
