import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/tidemark.js', import.meta.url));

export interface CliRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Runs `bin/tidemark.js` with the given arguments as a child process (from `opts.cwd`, as user `opts.uid`, with `opts.env` added to the environment, when given). */
export function runCli(args: string[], { env, ...opts }: { cwd?: string; uid?: number; gid?: number; env?: Record<string, string> } = {}): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], { ...opts, env: env ? { ...process.env, ...env } : undefined, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}
