import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { ensureNextBuild } from '../../scripts/next-build';
import { ensureServerBundle, serverBundleEnv } from '../../scripts/server-bundle.mjs';
import { ApiClient } from './api-client';
import { freePorts } from './free-port';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RunningCockpit {
  url: string;
  demoOrigin: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  /** PIDs of the crawl workers the server reported ready, in order. */
  workerPids: () => number[];
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(): Promise<void>;
}

export const ADMIN_PASSWORD = 'test-admin-password';

/** An API client signed in as the cockpit's first administrator. */
export const signedInAdmin = (cockpit: RunningCockpit): Promise<ApiClient> => ApiClient.signedIn(cockpit.url, 'admin', ADMIN_PASSWORD);

/** The repository's server.ts, and tsx's loader, by absolute location: the server may be started from another folder. */
const SERVER_ENTRY = fileURLToPath(new URL('../../server.ts', import.meta.url));
const TSX_LOADER = import.meta.resolve('tsx');

/**
 * How to start the server, as `npm start` does: compiled (scripts/server-bundle.mjs), its worker
 * too; with TIDEMARK_TEST_SOURCES=1, the sources through tsx.
 */
export async function serverCommand(): Promise<{ args: string[]; env: Record<string, string> }> {
  if (process.env.TIDEMARK_TEST_SOURCES === '1') return { args: ['--import', TSX_LOADER, SERVER_ENTRY], env: {} };
  const bundle = await ensureServerBundle();
  return { args: [bundle.server], env: serverBundleEnv(bundle) };
}

/**
 * Starts the real server (server.ts: Next + socket.io + demo site + worker) on free ports, from
 * `opts.cwd` (default: this process's current folder). A variable given as undefined in `env` is
 * left unset (spawn skips it).
 */
export async function startCockpit(env: Record<string, string | undefined> = {}, opts: { cwd?: string } = {}): Promise<RunningCockpit> {
  await ensureNextBuild();
  const dataDir = mkdtempSync(join(tmpdir(), 'tidemark-cockpit-'));
  // A free port found here may be taken by another process before the server binds it (ci132: the
  // demo site's port, an outgoing connection's ephemeral port meanwhile): the server then exits
  // saying so, and is started again on other ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startCockpitOn(await freePorts(2), dataDir, env, opts);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof Error) || !/another program uses that port/.test(err.message)) throw err;
    }
  }
}

async function startCockpitOn([port, demoPort]: number[], dataDir: string, env: Record<string, string | undefined>, opts: { cwd?: string }): Promise<RunningCockpit> {
  let out = '';
  const server = await serverCommand();
  const child = spawn(process.execPath, server.args, {
    cwd: opts.cwd ? resolve(opts.cwd) : undefined,
    env: { ...process.env, ...server.env, PORT: String(port), HOST: '127.0.0.1', TIDEMARK_DATA_DIR: dataDir, TIDEMARK_DEMO_PORT: String(demoPort), TIDEMARK_ADMIN_PASSWORD: ADMIN_PASSWORD, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const waiters: (() => void)[] = [];
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    waiters.splice(0).forEach((w) => w());
  };
  // A server that exits is an answer too: its waiters need not wait for their timeout.
  child.once('exit', () => waiters.splice(0).forEach((w) => w()));
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const waitForOutput = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output:\n${out.slice(-3000)}`)), timeoutMs);
      const check = () => {
        const match = out.match(pattern);
        if (match) {
          clearTimeout(deadline);
          resolve(match);
        } else if (child.exitCode !== null) {
          clearTimeout(deadline);
          reject(new Error(`server exited (${child.exitCode}); output:\n${out.slice(-3000)}`));
        } else waiters.push(check);
      };
      check();
    });
  await waitForOutput(/cockpit on (http:\/\/\S+)\//, 120_000);
  return {
    url: `http://127.0.0.1:${port}`,
    demoOrigin: `http://127.0.0.1:${demoPort}`,
    dataDir,
    process: child,
    output: () => out,
    workerPids: () => [...out.matchAll(/crawl worker (\d+) ready/g)].map((m) => Number(m[1])),
    waitForOutput,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
