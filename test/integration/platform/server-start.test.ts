import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureNextBuild } from '../../../scripts/next-build';
import { ApiClient } from '../../support/api-client';
import { serverCommand, startCockpit } from '../../support/cockpit';
import { freePorts } from '../../support/free-port';

before(() => ensureNextBuild());

/**
 * Starts the server with `env` and waits for it to exit (at most 2 minutes: a server that keeps
 * running is what these tests catch), returning its exit code and output.
 */
async function startExpectingExit(env: Record<string, string>): Promise<{ code: number | string | null; output: string }> {
  // No TIDEMARK_ADMIN_PASSWORD: a first start that succeeded would print a one-time password.
  const { TIDEMARK_ADMIN_PASSWORD: _unset, ...inherited } = process.env;
  const server = await serverCommand();
  const child = spawn(process.execPath, server.args, {
    env: { ...inherited, ...server.env, HOST: '127.0.0.1', TIDEMARK_DEMO_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  try {
    const code = await Promise.race([
      new Promise<number | null>((r) => child.on('exit', (c) => r(c))),
      new Promise<string>((r) => setTimeout(() => r('still running after 2 minutes'), 120_000).unref()),
    ]);
    return { code, output };
  } finally {
    // A server that never exited: its process group (server and worker) must not outlive the test.
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
  }
}

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-server-start-'));
  tempDirs.push(dir);
  return dir;
};
after(() => tempDirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

// Before, the error was logged as an uncaught exception and the server went on without a cockpit,
// its crawl worker running and the first user's one-time password printed.
test('a cockpit port in use stops the start with exit code 1 and says which setting to change, before any password or worker', { timeout: 300_000 }, async () => {
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  const port = (taken.address() as AddressInfo).port;
  try {
    const { code, output } = await startExpectingExit({ PORT: String(port), TIDEMARK_DATA_DIR: tempDir() });
    assert.equal(code, 1, output);
    assert.match(output, new RegExp(`tidemark: the cockpit cannot listen on 127\\.0\\.0\\.1:${port}: another program uses that port .* with PORT=…`));
    assert.doesNotMatch(output, /one-time password|crawl worker|uncaughtException/);
  } finally {
    taken.close();
  }
});

// Before, a second server on one data folder ran the same crawls into the same WARC files.
test('a second server on a data folder in use stops with exit code 1 and names the first, before touching the database', { timeout: 300_000 }, async () => {
  const first = await startCockpit();
  try {
    const { code, output } = await startExpectingExit({ PORT: '0', TIDEMARK_DATA_DIR: first.dataDir });
    assert.equal(code, 1, output);
    const port = new URL(first.url).port;
    assert.match(output, new RegExp(`tidemark: .* is in use by the cockpit on port ${port} \\(process ${first.process.pid}, since [^)]+\\): two Tidemark processes on one data folder`));
    assert.doesNotMatch(output, /applied migrations|crawl worker|tidemark: cockpit on http/);
  } finally {
    await first.stop();
  }
  // Once the first has stopped, the folder is free.
  const again = await startCockpit({ TIDEMARK_DATA_DIR: first.dataDir });
  await again.stop();
});

// Before, server.ts looked for prisma/migrations, knowledge-base/default.xml, the worker's entry and
// the cockpit's build in the current folder, and the worker for its knowledge base too: started from
// another folder (a service manager's, say) it found no migrations and failed to start.
test('the server started from a folder outside the repository migrates its database, serves the cockpit and starts its worker', { timeout: 300_000 }, async () => {
  const elsewhere = tempDir();
  const cockpit = await startCockpit({}, { cwd: elsewhere });
  try {
    assert.match(cockpit.output(), /tidemark: applied migrations \d{14}_/);
    const login = await fetch(`${cockpit.url}/login`);
    assert.equal(login.status, 200);
    assert.match(await login.text(), /<html/);
    await cockpit.waitForOutput(/crawl worker \d+ ready/);
    const db = new Database(join(cockpit.dataDir, 'tidemark.db'), { readonly: true });
    try {
      const kb = db.prepare("SELECT xml FROM KnowledgeBase WHERE name = 'default'").get() as { xml: string } | undefined;
      assert.match(kb?.xml ?? '(no shipped knowledge base seeded)', /<knowledge-base/);
    } finally {
      db.close();
    }
    assert.deepEqual(readdirSync(elsewhere), [], 'nothing written in the current folder');
  } finally {
    await cockpit.stop();
  }
});

/** The command line of a running process, as its arguments. */
const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

/**
 * Runs `npm start` (the README's command) on a new data folder until its crawl worker is ready;
 * returns the worker's command line.
 */
async function npmStartWorker(env: Record<string, string>): Promise<string[]> {
  const child = spawn('npm', ['start'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', TIDEMARK_DEMO_PORT: '0', TIDEMARK_DATA_DIR: tempDir(), TIDEMARK_ADMIN_PASSWORD: 'npm-start-password', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const ready = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no worker ready after 2 minutes:\n${output}`)), 120_000);
      const onData = (c: Buffer) => {
        output += c.toString();
        const m = output.match(/crawl worker (\d+) ready/);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
    });
    return commandLine(ready);
  } finally {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

// Before, `npm start` ran server.ts and its worker through tsx, loading ~470 modules one by one
// through its loader at each start (1.5 s more CPU in the server, 1.2 s in the worker).
test('npm start runs the compiled server and worker; with TIDEMARK_NO_BUNDLE=1, the sources through tsx', { timeout: 300_000 }, async () => {
  const compiled = await npmStartWorker({});
  assert.match(compiled.at(-1)!, /node_modules\/\.cache\/tidemark-server\/[0-9a-f]+\/[0-9a-f]+\/worker-main\.mjs$/, compiled.join(' '));
  assert.ok(!compiled.some((arg) => /tsx/.test(arg)), `no tsx: ${compiled.join(' ')}`);

  const sources = await npmStartWorker({ TIDEMARK_NO_BUNDLE: '1' });
  assert.match(sources.at(-1)!, /worker\/process\/worker-main\.ts$/, sources.join(' '));
  assert.ok(sources.some((arg) => /tsx/.test(arg)), `tsx: ${sources.join(' ')}`);
});

// Before, the first admin's password was hashed (~0.5 s) after the cockpit began to listen: a login
// in that time was refused as a wrong password, and the lists showed no Demo ICD.
test('a first start answers nothing before its first admin exists: a sign-in as soon as the cockpit listens goes through', { timeout: 300_000 }, async () => {
  const [port, demoPort] = await freePorts(2);
  const url = `http://127.0.0.1:${port}`;
  const server = await serverCommand();
  const child = spawn(process.execPath, server.args, {
    env: { ...process.env, ...server.env, HOST: '127.0.0.1', PORT: String(port), TIDEMARK_DEMO_PORT: String(demoPort), TIDEMARK_DATA_DIR: tempDir(), TIDEMARK_ADMIN_PASSWORD: 'first-start-password' },
    stdio: ['ignore', 'ignore', 'ignore'],
    detached: true,
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    // The sign-in asked every 10 ms until the cockpit answers: its first answer is the one checked.
    let first: Response | null = null;
    for (const end = Date.now() + 120_000; !first && child.exitCode === null && Date.now() < end; ) {
      first = await fetch(`${url}/api/auth/login`, {
        method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify({ username: 'admin', password: 'first-start-password' }),
      }).catch(() => null);
      if (!first) await new Promise((r) => setTimeout(r, 10));
    }
    assert.ok(first, 'the cockpit answered');
    assert.equal(first.status, 200, await first.text());
    const icds = await fetch(`${url}/api/icds`, { headers: { cookie: first.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') } });
    assert.deepEqual(((await icds.json()) as { name: string }[]).map((i) => i.name), ['Demo']);
  } finally {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
});

// Without TIDEMARK_ADMIN_PASSWORD the first start makes up the admin's password and prints it: the
// only way in. Printed once: a later start on the same data folder keeps it and prints none.
test('a first start without TIDEMARK_ADMIN_PASSWORD prints a one-time password that signs in, and a second start prints none', { timeout: 300_000 }, async () => {
  const first = await startCockpit({ TIDEMARK_ADMIN_PASSWORD: undefined });
  let password: string;
  try {
    const printed = [...first.output().matchAll(/created user "admin" with one-time password: (\S+)/g)];
    assert.equal(printed.length, 1, first.output());
    password = printed[0][1];
    const admin = await ApiClient.signedIn(first.url, 'admin', password);
    assert.equal((await admin.request('GET', '/api/auth/me')).status, 200);
  } finally {
    await first.stop();
  }
  const again = await startCockpit({ TIDEMARK_ADMIN_PASSWORD: undefined, TIDEMARK_DATA_DIR: first.dataDir });
  try {
    assert.doesNotMatch(again.output(), /one-time password/);
    await ApiClient.signedIn(again.url, 'admin', password);
  } finally {
    await again.stop();
  }
});
