import { parentPort, Worker, type ResourceLimits, type Transferable } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

/**
 * A worker thread that takes jobs and answers each one, in the order given: the crawl's side of the
 * analysis thread (analysis-client.ts) and of the extraction thread (extract-client.ts). A thread
 * that fails to start or dies rejects what it was given and every job after; its callers then do
 * the work on their own thread.
 *
 * The thread keeps the process alive only while it has jobs: an idle one never holds up an exit.
 */
export class JobThread<Job, Result> {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (r: Result) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private failure: Error | null = null;
  private isReady = false;
  private markReady!: () => void;
  /** Resolves once the thread has loaded its code and takes jobs; never rejects. */
  readonly started = new Promise<void>((resolve) => (this.markReady = resolve));

  /** `label` names the thread in errors ('analysis thread'); `source` is its bootstrap (threadBootSource). */
  constructor(
    private readonly label: string,
    source: string,
    workerData: unknown,
    resourceLimits?: ResourceLimits,
  ) {
    this.worker = new Worker(source, { eval: true, workerData, resourceLimits });
    this.worker.unref();
    this.worker.on('message', (msg: JobAnswer<Result> | typeof READY) => {
      if (!('id' in msg)) {
        this.isReady = true;
        this.markReady();
        return;
      }
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.settled(msg.id);
      if ('result' in msg) p.resolve(msg.result);
      else p.reject(new Error(`${this.label}: ${msg.error}`));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`exited with code ${code}`)));
  }

  /** True once the thread has loaded its code: a job given now is not held up by its start. */
  get ready(): boolean {
    return this.isReady && !this.failure;
  }

  /** Jobs given and not answered yet. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Why the thread takes no more jobs, or null while it does. */
  get failed(): Error | null {
    return this.failure;
  }

  run(job: Job, transfer: readonly Transferable[] = []): Promise<Result> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, job } satisfies JobMessage<Job>, transfer);
    });
  }

  async close(): Promise<void> {
    this.failure ??= new Error(`${this.label} closed`);
    await this.worker.terminate();
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  private fail(err: Error): void {
    this.failure ??= new Error(`${this.label} failed: ${err.message}`);
    this.markReady();
    for (const [id, p] of this.pending) {
      this.settled(id);
      p.reject(this.failure);
    }
  }
}

/** What the crawl's thread sends. */
export interface JobMessage<Job> {
  id: number;
  job: Job;
}

type JobAnswer<Result> = { id: number; result: Result } | { id: number; error: string };
/** The thread's first message: its code is loaded. */
const READY = { ready: true } as const;

/**
 * The thread's side: answers each job with `handle`'s result, moving the buffers it names rather
 * than copying them, or with the error it threw.
 */
export function serveJobs<Job, Result>(handle: (job: Job) => { result: Result; transfer?: Transferable[] }): void {
  parentPort!.on('message', ({ id, job }: JobMessage<Job>) => {
    let answer: { result: Result; transfer?: Transferable[] };
    try {
      answer = handle(job);
    } catch (err) {
      parentPort!.postMessage({ id, error: (err as Error)?.stack ?? String(err) } satisfies JobAnswer<Result>);
      return;
    }
    parentPort!.postMessage({ id, result: answer.result } satisfies JobAnswer<Result>, answer.transfer ?? []);
  });
  parentPort!.postMessage(READY);
}

/**
 * A thread's bootstrap: the bundle the CLI built next to its own (named by the environment variable
 * `bundleEnv`, set by bin/tidemark.js), else the TypeScript source `sourceUrl` through tsx.
 */
export function threadBootSource(bundleEnv: string, sourceUrl: string): string {
  const bundled = process.env[bundleEnv];
  if (bundled) return `import(${JSON.stringify(pathToFileURL(bundled).href)});`;
  const tsx = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(sourceUrl)}); });`;
}
