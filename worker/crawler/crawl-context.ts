import type Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import type { Icd } from '../icd/schema';
import type { SqliteFrontier } from '../frontier';
import { WarcWriter } from '../warc';
import { createFetcher, type Fetcher } from '../fetch';
import { RobotsCache } from '../robots';
import { TrapDetector } from '../url';
import { CaptureStore } from '../store/capture-store';
import { CrawlStatsTracker } from './crawl-stats';
import { CommitSequencer } from './commit-sequencer';
import { SqliteDedupLookup } from './sqlite-dedup';
import { cutUncommittedTail } from './warc-reconcile';
import { FocusAnalysis } from './focus-analysis';
import { AahRunner } from './aah-runner';
import { seedFrontier } from './seed-frontier';

const SOFTWARE = 'Tidemark/0.1.0';

export interface CrawlContextOptions {
  crawlId: number;
  icd: Icd;
  db: Database.Database;
  warcDir: string;
  spoolDir: string;
  kbPath?: string;
  frontier: SqliteFrontier;
}

/**
 * Everything the stages of one crawl share: the frontier, fetcher, robots cache, WARC writer,
 * stores, trap detector, analysis and AAH state. Built once per crawl run.
 */
export class CrawlContext {
  readonly stats: CrawlStatsTracker;
  readonly sequencer = new CommitSequencer();
  readonly traps: TrapDetector;

  private constructor(
    readonly crawlId: number,
    readonly icd: Icd,
    readonly db: Database.Database,
    readonly frontier: SqliteFrontier,
    readonly writer: WarcWriter,
    readonly fetcher: Fetcher,
    readonly robots: RobotsCache,
    readonly store: CaptureStore,
    readonly focus: FocusAnalysis | null,
    readonly aah: AahRunner | null,
  ) {
    this.stats = new CrawlStatsTracker();
    this.traps = new TrapDetector({ maxQueryVariantsPerPath: icd.scope.maxQueryVariantsPerPath });
  }

  static async open(o: CrawlContextOptions): Promise<CrawlContext> {
    const { icd } = o;
    await cutUncommittedTail(o.db, o.crawlId, o.warcDir);
    const writer = new WarcWriter({
      dir: o.warcDir,
      crawlId: `tidemark-${o.crawlId}`,
      rotateBytes: icd.warc.rotateBytes,
      gzipLevel: icd.warc.gzipLevel,
      software: SOFTWARE,
      robotsPolicy: icd.politeness.respectRobots ? 'obey' : 'ignore',
      userAgent: icd.userAgent,
      isPartOf: icd.name,
      dedup: new SqliteDedupLookup(o.db, o.crawlId),
    });
    await writer.open();
    const fetcher = createFetcher({ userAgent: icd.userAgent, limits: icd.limits, spoolDir: o.spoolDir });
    const robots = new RobotsCache({
      userAgent: icd.userAgent,
      enabled: icd.politeness.respectRobots,
      ignoreFor: icd.politeness.ignoreRobotsFor,
      fetchRobots: (url) => fetcher.fetch(url),
    });
    const store = new CaptureStore(o.db, o.crawlId);
    const focus = icd.focus.enabled ? FocusAnalysis.create(icd.focus) : null;
    const aah = icd.aah.enabled && o.kbPath && existsSync(o.kbPath) ? AahRunner.create(readFileSync(o.kbPath, 'utf8')) : null;
    o.frontier.openCrawl(o.crawlId, {
      maxPages: icd.scope.maxPages,
      maxPagesPerHost: icd.scope.maxPagesPerHost,
      maxDepth: icd.scope.maxDepth + 1, // requisites may sit one hop past the page depth limit
      politeness: { ...icd.politeness, enabled: icd.politeness.enabled },
    });
    const ctx = new CrawlContext(o.crawlId, icd, o.db, o.frontier, writer, fetcher, robots, store, focus, aah);
    ctx.restoreStats();
    seedFrontier(ctx);
    return ctx;
  }

  /** Counters of earlier runs, so a resumed crawl's figures continue where they were. */
  private restoreStats(): void {
    const captures = this.db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes FROM Capture WHERE crawlId = ?').get(this.crawlId) as { n: number; bytes: number };
    this.stats.fetched = captures.n;
    this.stats.bytes = captures.bytes;
    for (const row of this.db.prepare('SELECT status / 100 AS cls, COUNT(*) AS n FROM Capture WHERE crawlId = ? GROUP BY status / 100').all(this.crawlId) as { cls: number; n: number }[]) {
      this.stats.statusClasses[`${row.cls}xx`] = row.n;
    }
    for (const row of this.db.prepare("SELECT outcome, COUNT(*) AS n FROM CrawlLogEntry WHERE crawlId = ? AND outcome NOT IN ('ok', 'robots', 'robots-unavailable') AND outcome NOT LIKE 'truncated-%' GROUP BY outcome").all(this.crawlId) as { outcome: string; n: number }[]) {
      this.stats.failed += row.n;
      this.stats.failedByReason[row.outcome] = row.n;
    }
    for (const row of this.db.prepare("SELECT outcome, COUNT(*) AS n FROM CrawlLogEntry WHERE crawlId = ? AND outcome IN ('robots', 'robots-unavailable') GROUP BY outcome").all(this.crawlId) as { outcome: string; n: number }[]) {
      this.stats.excluded += row.n;
      this.stats.excludedByReason[row.outcome] = row.n;
    }
  }

  relevanceSnapshot(): unknown {
    return this.focus?.snapshot() ?? null;
  }

  async close(): Promise<void> {
    await this.writer.close();
    await this.fetcher.close();
  }
}
