import { fork, type ChildProcess } from 'node:child_process';
import type { ServerMessage, WorkerMessage } from '../events/messages';
import { HEALTHY_UPTIME_MS, doublingDelayMs } from './backoff';

export interface SupervisorOptions {
  /**
   * Module to run in the child, asked at each start (a cockpit's compiled build may be gone by a
   * restart): a TypeScript file runs through tsx, a compiled one as it is.
   */
  entry(): string;
  env?: NodeJS.ProcessEnv;
  onMessage(message: WorkerMessage): void;
  log?(line: string): void;
  restartBaseMs?: number;
}

/**
 * Forks the crawl worker and keeps it alive: when it dies (crash, OOM, kill -9) it is started
 * again after a backoff; the new worker resumes every running crawl from the database.
 */
export class WorkerSupervisor {
  private child: ChildProcess | null = null;
  private crashes = 0;
  private startedAt = 0;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Increments on every start; tests use it to see a restart. */
  generation = 0;

  constructor(private readonly opts: SupervisorOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    this.stopping = false;
    const entry = this.opts.entry();
    const child = fork(entry, [], {
      // tsx by its location: `--import tsx` is resolved from the current folder, which may be anywhere.
      execArgv: /\.[cm]?tsx?$/.test(entry) ? ['--import', import.meta.resolve('tsx')] : [],
      env: this.opts.env ?? process.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    this.generation += 1;
    this.startedAt = Date.now();
    child.on('message', (message) => this.opts.onMessage(message as WorkerMessage));
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      if (this.stopping) return;
      this.crashes = Date.now() - this.startedAt > HEALTHY_UPTIME_MS ? 1 : this.crashes + 1;
      const delay = doublingDelayMs(this.crashes, this.opts.restartBaseMs);
      this.opts.log?.(`crawl worker exited (code ${code}, signal ${signal}); restarting in ${delay} ms`);
      this.restartTimer = setTimeout(() => this.start(), delay);
    });
  }

  send(message: ServerMessage): void {
    if (this.child?.connected) this.child.send(message);
  }

  /** Asks the worker to finish its current writes and exit; kills it after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.send({ type: 'shutdown' });
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
