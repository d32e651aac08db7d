import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { AnalysisJob, AnalysisThreadData } from './analysis-thread';
import { packPage, transferablesOf } from './analysis-job';
import type { HtmlPage, ScoredPage } from './focus-scorer';

/**
 * The crawl's side of the analysis thread. Text analysis is the largest share of a focused
 * crawl's CPU per page; on its own thread it overlaps with fetching, parsing and committing,
 * which the crawl's thread keeps (a focused crawl of the benchmark site goes ~17% faster).
 *
 * The thread runs the compiled entry built with the CLI's or the cockpit's own
 * (TIDEMARK_ANALYSIS_THREAD_ENTRY, set by bin/tidemark.js and scripts/start.mjs), else the
 * TypeScript source through tsx. A thread that fails to start (its compiled entry removed since,
 * say) or dies rejects what it was given, and the caller analyses in its own thread from then on.
 */
export class AnalysisThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (a: ScoredPage) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private failure: Error | null = null;

  private constructor(data: AnalysisThreadData) {
    this.worker = new Worker(bootSource(), { eval: true, workerData: data });
    // The thread keeps the process alive only while it has pages to score.
    this.worker.unref();
    this.worker.on('message', (msg: { id: number; scored?: ScoredPage; error?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.settled(msg.id);
      if (msg.scored) p.resolve(msg.scored);
      else p.reject(new Error(`analysis thread: ${msg.error}`));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`exited with code ${code}`)));
  }

  /** A thread for the crawl's focus settings, or null where a second thread would not help (one core). */
  static start(data: AnalysisThreadData): AnalysisThread | null {
    if (availableParallelism() < 2 || process.env.TIDEMARK_ANALYSIS_THREAD === '0') return null;
    return new AnalysisThread(data);
  }

  /** Scores a page in the thread; jobs are scored in the order they were given. */
  analyze(page: HtmlPage): Promise<ScoredPage> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      const packed = packPage(page);
      this.worker.postMessage({ id, page: packed } satisfies AnalysisJob, transferablesOf(packed));
    });
  }

  async close(): Promise<void> {
    this.failure ??= new Error('analysis thread closed');
    await this.worker.terminate();
  }

  private settled(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  private fail(err: Error): void {
    this.failure ??= new Error(`analysis thread failed: ${err.message}`);
    for (const [id, p] of this.pending) {
      this.settled(id);
      p.reject(this.failure);
    }
  }
}

/** The thread's bootstrap: the bundled entry, or the source once tsx's loader is registered in it. */
function bootSource(): string {
  const bundled = process.env.TIDEMARK_ANALYSIS_THREAD_ENTRY;
  if (bundled) return `import(${JSON.stringify(pathToFileURL(bundled).href)});`;
  const tsx = import.meta.resolve('tsx/esm/api');
  const source = new URL('./analysis-thread.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
}
