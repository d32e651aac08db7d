// What every benchmark result records about its run, and the knobs for studying one.
import { execFileSync } from 'node:child_process';
import { cpus, release, totalmem } from 'node:os';
import { resolve } from 'node:path';

/** The machine the figures were measured on. */
export function machineInfo() {
  return { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryGb: Number((totalmem() / 1024 ** 3).toFixed(1)), kernel: release(), node: process.version };
}

/** `git args` in `cwd`, trimmed; 'unknown' when git is missing or fails. */
export function git(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** The commit measured. BENCH_COMMIT: set when the benchmark runs from an exported snapshot (git archive), not a work tree. */
export function benchCommit(root: string): string {
  return process.env.BENCH_COMMIT ?? git(['rev-parse', '--short', 'HEAD'], root);
}

/**
 * Node options for a Tidemark process, for studying a run: BENCH_CPU_PROF=dir makes it write V8 CPU
 * profiles (main thread and workers) there; BENCH_NODE_FLAGS adds flags of your own (space-separated,
 * e.g. `--trace-gc`; its output goes to the run's stdout, after the CLI's summary).
 */
export function cpuProfileArgs(): string[] {
  const own = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  return [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`] : []), ...own];
}
