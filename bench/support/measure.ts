// Runs one command as a whole process under GNU time: wall seconds, user+sys CPU seconds (the process and every
// thread and waited-for descendant) and peak RSS.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ensureAptTool } from './nginx';

export interface Measured {
  wallS: number;
  cpuS: number;
  peakRssMb: number;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export async function measure(cmd: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Measured> {
  const timeFile = join(tmpdir(), `bench-time-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  // GNU time, not the shell keyword: installed with apt-get (package `time`) when missing, never under CI.
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : ensureAptTool('/usr/bin/time', 'time');
  const started = process.hrtime.bigint();
  const child = spawn(timeBin, ['-o', timeFile, '-f', '%e %U %S %M', ...cmd], { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    if (stderr.length > 1_000_000) stderr = stderr.slice(-200_000);
  });
  const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : null;
  const exitCode: number | null = await new Promise((res) => child.on('close', (c) => res(c)));
  if (timer) clearTimeout(timer);
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  const lines = existsSync(timeFile) ? readFileSync(timeFile, 'utf8').trim().split('\n') : [];
  rmSync(timeFile, { force: true });
  const last = (lines.at(-1) ?? '0 0 0 0').split(' ').map(Number);
  return { wallS, cpuS: last[1] + last[2], peakRssMb: last[3] / 1024, exitCode, stdout, stderr };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
