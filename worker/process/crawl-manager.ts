import type Database from 'better-sqlite3';
import { ZodError } from 'zod';
import { parseIcd } from '../icd/schema';
import { sqlDate } from '../store/sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkerMessage } from '../events/messages';
import { CrawlEngine, type CrawlEngineOptions } from '../crawler/crawl-engine';
import { ExportFailureNotRecorded, exportFailureReason, exportUnderWay, recordExportFailure, runExport } from '../export/export-job';
import { crawlSpoolDir, crawlWarcDir, exportDir } from '../store/data-layout';
import { closeFilesLeftOpen } from '../crawler/warc-reconcile';
import { removeLeftoverExportFolders } from '../export/export-delete';
import { ensureFeedPlanIndex } from '../crawler/feed-state-store';
import { PolitenessRegistry } from '../politeness';
import { prunePolitenessRows } from './prune-politeness';
import { endCrawl, type CrawlEnd } from './crawl-end';
import { TERMINAL_STATUSES } from './crawl-control';
import { storedIcdProblem } from './stored-icd-replacement';

const TICK_MS = 250;
const STATS_MS = 1000;

interface CrawlRow {
  id: number;
  status: string;
  desired: string;
  definition: string;
}

/**
 * Converges every crawl on what the archivist asked for (Crawl.desired, set by the API): starts,
 * pauses, resumes and stops engines, writes their status and stats, and runs export jobs. The
 * database is the only channel from the cockpit, so a restarted worker picks up where it was.
 */
export class CrawlManager {
  private engines = new Map<number, CrawlEngine>();
  /** Each engine's run, until its end is recorded (its run row, its last counters, its status: launch). */
  private readonly runsEnded = new Map<number, Promise<void>>();
  private exporting = false;
  /** An export that failed while the database could not store it: its reason, stored at a later tick. */
  private unrecordedExport: { id: number; reason: string } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private statsTimer: NodeJS.Timeout | null = null;
  private ticking = false;
  /** Crawls being paused or stopped without an engine (settleWithoutEngine). */
  private readonly settling = new Set<number>();
  /** The prune of politeness rows under way (prunePoliteness): crawls ending together prune one after the other. */
  private pruning: Promise<void> = Promise.resolve();
  /**
   * The politeness clocks every engine of this worker shares: two crawls of one site (a focused
   * crawl and a full one, say) get one request at a time between them, each after the delay.
   */
  readonly registry: PolitenessRegistry;

  /**
   * `kbPath`: the knowledge-base file of crawls created before each crawl took a copy of its own
   * (Crawl.knowledgeBaseXml); the worker passes the shipped knowledge-base/default.xml.
   */
  constructor(private readonly opts: { db: Database.Database; dataDir: string; send(m: WorkerMessage): void; kbPath?: string; registry?: PolitenessRegistry; minuteMs?: number; aahBudgetMs?: number }) {
    this.registry = opts.registry ?? new PolitenessRegistry();
  }

  start(): void {
    // An export this worker's predecessor was running when it died starts again from the beginning.
    this.opts.db.prepare("UPDATE Export SET status = 'pending', progress = 0 WHERE status = 'running'").run();
    // One cancelled, or cancelled and deleted, while its predecessor ran it, which died before removing what it had written.
    removeLeftoverExportFolders(this.opts.db, this.opts.dataDir);
    // A feeds table an older Tidemark made gets the cockpit's plan index, whether or not a crawl with feeds runs again.
    ensureFeedPlanIndex(this.opts.db);
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.statsTimer = setInterval(() => this.publishStats(), STATS_MS);
    void this.tick();
  }

  /** Whether an export is being run now: once it is not, a cancelled export's clean-up is over (tests wait for that). */
  isExporting(): boolean {
    return this.exporting;
  }

  /** Called when the server knows something changed: look now rather than at the next tick. */
  poke(): void {
    void this.tick();
  }

  async shutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.statsTimer) clearInterval(this.statsTimer);
    // Pause engines without changing the crawls' status: a restarted worker resumes them.
    await Promise.all([...this.engines.values()].map((engine) => engine.pause()));
    this.publishStats();
    // Its batches are short, and the database is closed after this.
    await this.pruning;
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const { db } = this.opts;
      const crawls = db
        .prepare(`SELECT id, status, desired, definition FROM Crawl WHERE status NOT IN (${TERMINAL_STATUSES.map(() => '?').join(',')})`)
        .all(...TERMINAL_STATUSES) as CrawlRow[];
      for (const crawl of crawls) this.converge(crawl);
      if (!this.exporting) void this.runPendingExport();
    } finally {
      this.ticking = false;
    }
  }

  private converge(crawl: CrawlRow): void {
    // Its files are being closed: nothing may open them meanwhile (a resume asked for in that moment waits a tick).
    if (this.settling.has(crawl.id)) return;
    const engine = this.engines.get(crawl.id);
    if (crawl.desired === 'run' && !engine) {
      // The API refuses a resume while an export is under way; one asked for in the same moment
      // still waits, so the export holds the crawl as it was paused.
      if (exportUnderWay(this.opts.db, crawl.id) !== null) return;
      return this.launch(crawl);
    }
    if (crawl.desired === 'pause' && engine) return void this.halt(crawl.id, engine, 'paused');
    if (crawl.desired === 'pause' && !engine && crawl.status !== 'paused') return void this.settleWithoutEngine(crawl.id, 'paused');
    if (crawl.desired === 'stop' && engine) return void this.halt(crawl.id, engine, 'stopped');
    if (crawl.desired === 'stop' && !engine) return void this.settleWithoutEngine(crawl.id, 'stopped');
  }

  /**
   * Pauses or stops a crawl no engine runs. When its last run ended with the worker (a crash, kill
   * -9), its WARC files are still open: closed first, so that it exports whole.
   */
  private async settleWithoutEngine(crawlId: number, status: 'paused' | 'stopped'): Promise<void> {
    if (this.settling.has(crawlId)) return;
    this.settling.add(crawlId);
    try {
      await closeFilesLeftOpen(this.opts.db, crawlId, crawlWarcDir(this.opts.dataDir, crawlId));
      if (status === 'stopped') this.end(crawlId, { status });
      else this.setStatus(crawlId, status);
    } catch (err) {
      // A full disk, say: the files stay as they are, and the next tick tries again.
      console.error(`tidemark worker: crawl ${crawlId}: closing the WARC files its last run left open failed: ${(err as Error).message}`);
    } finally {
      this.settling.delete(crawlId);
    }
  }

  /**
   * Runs `close` (closing the crawl's files left open) once no settle of the crawl is closing them,
   * and keeps settles (a stop of the paused crawl) and launches off them meanwhile: two closings at
   * once would both rename the same files and both rewrite the index.
   */
  private async closingFiles<T>(crawlId: number, close: () => Promise<T>): Promise<T> {
    while (this.settling.has(crawlId)) await sleep(50);
    this.settling.add(crawlId);
    try {
      return await close();
    } finally {
      this.settling.delete(crawlId);
    }
  }

  private launch(crawl: CrawlRow): void {
    const { db } = this.opts;
    let icd;
    try {
      icd = parseIcd(JSON.parse(crawl.definition));
    } catch (err) {
      // Settings an earlier version accepted and this one refuses: it waits, paused with the reason,
      // for the archivist to correct them (stored-icd-replacement.ts). Marked failed, it was stranded.
      if (err instanceof ZodError) return this.pauseWithReason(crawl.id, storedIcdProblem(err));
      db.prepare("UPDATE Crawl SET status = 'failed', error = ? WHERE id = ?").run(storedIcdProblem(err), crawl.id);
      return;
    }
    const reason = crawl.status === 'created' ? 'start' : crawl.status === 'running' ? 'restart' : 'resume';
    const engine = new CrawlEngine({
      ...this.knowledgeBaseOf(crawl.id),
      crawlId: crawl.id,
      icd,
      db,
      ranBeforeMs: this.ranBeforeMs(crawl.id),
      warcDir: crawlWarcDir(this.opts.dataDir, crawl.id),
      spoolDir: crawlSpoolDir(this.opts.dataDir, crawl.id),
      registry: this.registry,
      minuteMs: this.opts.minuteMs,
      aahBudgetMs: this.opts.aahBudgetMs,
      onCaptures: (captures, count) => this.opts.send({ type: 'captures', crawlId: crawl.id, captures, count }),
      onRelevance: (payload) => this.opts.send({ type: 'relevance', crawlId: crawl.id, payload }),
      onCoherence: (payload) => this.opts.send({ type: 'coherence', crawlId: crawl.id, payload }),
    });
    this.engines.set(crawl.id, engine);
    const now = sqlDate(new Date());
    db.prepare("UPDATE Crawl SET status = 'running', error = NULL, startedAt = COALESCE(startedAt, ?) WHERE id = ?").run(now, crawl.id);
    const run = db.prepare('INSERT INTO CrawlRun (crawlId, startedAt, reason, workerPid) VALUES (?, ?, ?, ?)').run(crawl.id, now, reason, process.pid);
    this.opts.send({ type: 'status', crawlId: crawl.id, status: 'running' });
    const ended = engine
      .run()
      .catch((err: Error) => {
        console.error(`tidemark worker: crawl ${crawl.id} failed: ${err.stack ?? err.message}`);
        return err;
      })
      .then((outcome) => {
        this.engines.delete(crawl.id);
        this.runsEnded.delete(crawl.id);
        db.prepare('UPDATE CrawlRun SET endedAt = ? WHERE id = ?').run(sqlDate(new Date()), run.lastInsertRowid);
        // The engine's last counters first: ending the crawl adds to them the posted URLs it records.
        this.writeStats(crawl.id, engine);
        if (outcome instanceof Error) this.end(crawl.id, { status: 'failed', error: outcome.message });
        else if (outcome === 'finished') this.end(crawl.id, { status: 'finished' });
        // Paused on its own (a full disk): it waits for the archivist to resume it, with the reason.
        else if (engine.pausedBecause) this.pauseWithReason(crawl.id, engine.pausedBecause);
      })
      // The database refused (a full disk): the crawl is still 'running', and the next tick runs it again.
      .catch((err: Error) => console.error(`tidemark worker: crawl ${crawl.id}: the end of its run could not be recorded: ${err.message}`));
    this.runsEnded.set(crawl.id, ended);
  }

  /**
   * How long the crawl's earlier runs lasted, for its time limit: pauses between runs do not count,
   * nor does a run the worker died in (it has no end).
   */
  private ranBeforeMs(crawlId: number): number {
    const ms = this.opts.db
      .prepare('SELECT SUM(julianday(endedAt) - julianday(startedAt)) * 86400000 FROM CrawlRun WHERE crawlId = ? AND endedAt IS NOT NULL')
      .pluck()
      .get(crawlId) as number | null;
    // Whole milliseconds: julianday's arithmetic leaves fractions that would leave a spent limit a hair short.
    return Math.max(0, Math.round(ms ?? 0));
  }

  /**
   * The knowledge base a crawl's AAH runs with: the copy taken when it was created; for a crawl
   * created before copies were taken (none stored), the file at `kbPath`, as such crawls always did.
   * Read as a crawl starts, not every tick: a copy may be megabytes.
   */
  private knowledgeBaseOf(crawlId: number): Pick<CrawlEngineOptions, 'knowledgeBase' | 'kbPath'> {
    const row = this.opts.db.prepare('SELECT knowledgeBaseName AS name, knowledgeBaseXml AS xml FROM Crawl WHERE id = ?').get(crawlId) as { name: string | null; xml: string | null } | undefined;
    if (row?.xml == null) return { kbPath: this.opts.kbPath };
    return { knowledgeBase: { name: row.name ?? 'unnamed', xml: row.xml } };
  }

  private async halt(crawlId: number, engine: CrawlEngine, status: 'paused' | 'stopped'): Promise<void> {
    if (engine.halting) return;
    const runEnded = this.runsEnded.get(crawlId);
    this.setStatus(crawlId, status === 'paused' ? 'pausing' : 'stopping');
    await (status === 'paused' ? engine.pause() : engine.stop());
    // The run's end is recorded first (launch): a stop adds to its counters the posted URLs it records.
    await runEnded;
    this.engines.delete(crawlId);
    if (status === 'stopped') this.end(crawlId, { status });
    else this.setStatus(crawlId, status);
  }

  /** Ends the crawl for good, with the posted URLs still waiting recorded (endCrawl), and says so. */
  private end(crawlId: number, end: CrawlEnd): void {
    endCrawl(this.opts.db, crawlId, end);
    this.opts.send({ type: 'status', crawlId, status: end.status });
    this.prunePoliteness();
  }

  /** Deletes the politeness rows no crawl needs any more, in short transactions between the other crawls' writes. */
  private prunePoliteness(): void {
    this.pruning = this.pruning
      .then(() => prunePolitenessRows(this.opts.db))
      .then(
        () => undefined,
        (err: Error) => console.error(`tidemark worker: the politeness rows no crawl needs could not be deleted (tried again when a crawl next ends): ${err.message}`),
      );
  }

  private pauseWithReason(crawlId: number, reason: string): void {
    try {
      this.opts.db.prepare("UPDATE Crawl SET status = 'paused', desired = 'pause', error = ? WHERE id = ?").run(reason, crawlId);
    } catch (err) {
      // The database's disk is the full one: the crawl stays 'running' and is launched again on the
      // next tick, to pause again until there is room.
      console.error(`tidemark worker: crawl ${crawlId}: ${reason} The pause could not be stored: ${(err as Error).message}`);
      return;
    }
    this.opts.send({ type: 'status', crawlId, status: 'paused' });
  }

  private setStatus(crawlId: number, status: string): void {
    this.opts.db.prepare('UPDATE Crawl SET status = ? WHERE id = ?').run(status, crawlId);
    this.opts.send({ type: 'status', crawlId, status });
  }

  private writeStats(crawlId: number, engine: CrawlEngine): void {
    const stats = engine.stats();
    this.opts.db.prepare('UPDATE Crawl SET stats = ? WHERE id = ?').run(JSON.stringify(stats), crawlId);
    this.opts.send({ type: 'stats', crawlId, stats });
  }

  private publishStats(): void {
    for (const [crawlId, engine] of this.engines) this.writeStats(crawlId, engine);
  }

  /**
   * Runs the oldest pending export. One that failed when the database could not store it (a full
   * disk) is recorded first, at a later tick once there is room: it never ends the worker (as an
   * unhandled rejection would), and no other export starts before it is.
   */
  private async runPendingExport(): Promise<void> {
    const { db } = this.opts;
    if (this.unrecordedExport) {
      try {
        recordExportFailure(db, this.unrecordedExport.id, this.unrecordedExport.reason);
        this.unrecordedExport = null;
      } catch {
        return;
      }
    }
    const pending = db.prepare("SELECT e.id, e.crawlId FROM Export e WHERE e.status = 'pending' ORDER BY e.id LIMIT 1").get() as
      | { id: number; crawlId: number }
      | undefined;
    if (!pending) return;
    this.exporting = true;
    try {
      const warcDir = crawlWarcDir(this.opts.dataDir, pending.crawlId);
      await runExport(db, {
        exportId: pending.id, crawlId: pending.crawlId, warcDir, exportDir: exportDir(this.opts.dataDir, pending.id),
        closeLeftOpen: () => this.closingFiles(pending.crawlId, () => closeFilesLeftOpen(db, pending.crawlId, warcDir)),
        otherCrawl: (crawlId) => {
          const otherDir = crawlWarcDir(this.opts.dataDir, crawlId);
          return { warcDir: otherDir, closeLeftOpen: () => this.closingFiles(crawlId, () => closeFilesLeftOpen(db, crawlId, otherDir)) };
        },
      });
    } catch (err) {
      // The database refused a write: the failure's reason (or the refusal, when the export could not even be started) is kept.
      console.error(`tidemark worker: export ${pending.id}: ${(err as Error).message}`);
      this.unrecordedExport = { id: pending.id, reason: err instanceof ExportFailureNotRecorded ? err.reason : exportFailureReason(err) };
    } finally {
      this.exporting = false;
    }
  }
}
