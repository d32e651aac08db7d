import { availableParallelism } from 'node:os';
import type { AnalysisThreadData } from './analysis-thread';
import { packPage, transferablesOf, type PackedPage } from './analysis-job';
import { JobThread, threadBootSource } from './job-thread';
import type { HtmlPage, ScoredPage } from './focus-scorer';

/**
 * The crawl's side of the analysis thread. Text analysis is the largest share of a focused
 * crawl's CPU per page; on its own thread it overlaps with fetching, parsing and committing,
 * which the crawl's thread keeps (a focused crawl of the benchmark site goes ~17% faster).
 *
 * The thread runs the bundle the CLI built next to its own (TIDEMARK_ANALYSIS_THREAD_ENTRY, set by
 * bin/tidemark.js), else the TypeScript source through tsx. A thread that fails to start or dies
 * rejects what it was given, and the caller analyses in its own thread from then on.
 */
export class AnalysisThread {
  private constructor(private readonly thread: JobThread<PackedPage, ScoredPage>) {}

  /** A thread for the crawl's focus settings, or null where a second thread would not help (one core). */
  static start(data: AnalysisThreadData): AnalysisThread | null {
    if (availableParallelism() < 2 || process.env.TIDEMARK_ANALYSIS_THREAD === '0') return null;
    const source = threadBootSource('TIDEMARK_ANALYSIS_THREAD_ENTRY', new URL('./analysis-thread.ts', import.meta.url).href);
    return new AnalysisThread(new JobThread('analysis thread', source, data));
  }

  /** Scores a page in the thread; jobs are scored in the order they were given. */
  analyze(page: HtmlPage): Promise<ScoredPage> {
    const packed = packPage(page);
    return this.thread.run(packed, transferablesOf(packed));
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
