import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureNextBuild } from '../../../scripts/next-build';

// Before, the error was logged as an uncaught exception and the server went on without a cockpit,
// its crawl worker running and the first user's one-time password printed.
test('a cockpit port in use stops the start with exit code 1 and says which setting to change, before any password or worker', { timeout: 300_000 }, async () => {
  await ensureNextBuild();
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  const port = (taken.address() as AddressInfo).port;
  const dataDir = mkdtempSync(join(tmpdir(), 'tm-port-taken-'));
  let child: ChildProcess | undefined;
  try {
    // No TIDEMARK_ADMIN_PASSWORD: a first start that succeeded would print a one-time password.
    const { TIDEMARK_ADMIN_PASSWORD: _unset, ...inherited } = process.env;
    child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
      env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', TIDEMARK_DATA_DIR: dataDir, TIDEMARK_DEMO_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const started = child;
    const code = await Promise.race([
      new Promise<number | null>((r) => started.on('exit', (c) => r(c))),
      new Promise<string>((r) => setTimeout(() => r('still running after 2 minutes'), 120_000).unref()),
    ]);
    assert.equal(code, 1, output);
    assert.match(output, new RegExp(`tidemark: the cockpit cannot listen on 127\\.0\\.0\\.1:${port}: another program uses that port .* with PORT=…`));
    assert.doesNotMatch(output, /one-time password|crawl worker|uncaughtException/);
  } finally {
    // The old server never exited: its process group (server and worker) must not outlive the test.
    if (child?.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
    taken.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
