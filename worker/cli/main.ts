import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ZodError } from 'zod';
import type { Icd } from '../icd/schema';
import { repairFromIcdFile, repairNotice, replacedNotice, resumeNotice, resumeOverrides, seedsCrawlName, withOverrides, type IcdOverrides } from './resume-icd';
import { refusedFields, replacementLine, type FieldReplacement } from '../icd/stored-icd-repair';
import { storeIcdReplacement } from '../process/stored-icd-replacement';
import { parseUserIcd } from '../icd/user-icd';
import { issueLines } from '../icd/plain-issues';
import { openSqlite, sqlDate } from '../store/sqlite';
import { startWalCheckpointer } from '../store/wal-checkpointer';
import { applyMigrations, MIGRATIONS_DIR } from '../store/migrator';
import { DEFAULT_KB_PATH } from '../aah/default-kb';
import { CrawlEngine, HALT_GRACE_MS } from '../crawler/crawl-engine';
import type { BackoffConfig } from '../fetch/retry-backoff';
import { startStopwatch } from '../politeness/clock';
import type { CrawlLimit } from '../events/messages';
import { parseCliArgs, progressEveryMs, USAGE, type CheckCommand, type CrawlCommand } from './args';
import { reasonCounts, reportProgress } from './progress';
import { runCheck } from './check';
import { readIcdFile } from './icd-file';
import { exportableFiles, listVerified, packageAsWacz } from '../export/export-job';
import { boundRegExpBacktracking } from '../process/bounded-regexp';
import { holdDataLock } from '../store/data-lock';
import { isStorageFailure } from '../store/storage-failure';
import { CLI_CRAWL_LOG_NAME, seedProblems, writeCrawlLogFile } from './crawl-records';
import { removeLegacySpool } from './legacy-spool';

/** Where `--wacz` puts the package: in the output folder, beside the files it holds. */
export const CLI_WACZ_NAME = 'crawl.wacz';

/** Where large bodies wait in `--out` while they are written to the WARC file. */
export const CLI_SPOOL_NAME = '.tidemark-spool';

/** What the summary says of a package a Ctrl-C (or SIGTERM) stopped. */
export const WACZ_INTERRUPTED = 'interrupted before it was whole (none is left); run the same command again to write it';

/**
 * `--wacz`: the finished crawl's files, verified, packaged in `out`; its path, or an error message.
 * `signal` (a Ctrl-C) stops it: writeWacz removes its partial file, and the WARC files are only read.
 */
async function packageOutput(db: ReturnType<typeof openSqlite>, crawlId: number, out: string, pageText: boolean, signal: AbortSignal): Promise<{ wacz: string } | { waczError: string }> {
  try {
    const files = await listVerified(out, exportableFiles(out, crawlId), () => undefined, signal);
    const packed = await packageAsWacz(db, {
      crawlId, dir: out, files, selection: null, outPath: join(out, CLI_WACZ_NAME), description: `Tidemark CLI crawl of ${out}.`, pageTextFrom: pageText ? out : undefined, signal,
    });
    return { wacz: join(out, packed.name) };
  } catch (err) {
    return { waczError: signal.aborted ? WACZ_INTERRUPTED : (err as Error).message };
  }
}

/** The files writeWacz leaves while it writes `crawl.wacz`: removed when a second Ctrl-C ends the process at once. */
function removePartialPackage(out: string): void {
  for (const partial of [`${CLI_WACZ_NAME}.open`, `${CLI_WACZ_NAME}.pages.jsonl`]) rmSync(join(out, partial), { force: true });
}

/** The flags that change a crawl's settings, as the ICD fields they set (only those given). */
function flagSettings(cmd: CrawlCommand): IcdOverrides {
  return {
    scope: cmd.maxPages ? { maxPages: cmd.maxPages } : {},
    politeness: { ...(cmd.concurrency ? { concurrency: cmd.concurrency } : {}), ...(cmd.politeness ? {} : { enabled: false }) },
  };
}

/**
 * Parses a person's ICD with the flags applied, so they are validated as the file's own fields are
 * (and it may not hold unknown fields; a stored one may, from an older version: resume-icd.ts).
 */
function parseWithFlags(base: Record<string, unknown>, cmd: CrawlCommand): Icd {
  const flags = flagSettings(cmd);
  const input = {
    ...base,
    scope: { ...(base.scope as Record<string, unknown> | undefined), ...flags.scope },
    politeness: { ...(base.politeness as Record<string, unknown> | undefined), ...flags.politeness },
  };
  return parseUserIcd(input);
}

/** The ICD for a CLI run: the file's, or one built from the seeds, with the flags applied. */
export function icdForCommand(cmd: CrawlCommand): Icd {
  const base = cmd.icdPath ? readIcdFile(cmd.icdPath) : { name: seedsCrawlName(cmd.seeds[0]), seeds: cmd.seeds };
  const added = cmd.icdPath ? cmd.seeds : [];
  // Seeds that are not a list (one URL as a string, say) go to the schema as they are, which says so;
  // spread, a string became one seed per character.
  const seeds = base.seeds === undefined ? added : Array.isArray(base.seeds) ? [...base.seeds, ...added] : base.seeds;
  return parseWithFlags({ ...base, seeds }, cmd);
}

const LIMIT_NAMES: Record<CrawlLimit, string> = { 'time-limit': 'time', 'size-limit': 'size', 'page-limit': 'page' };

/**
 * How a crawl ended by a limit goes on. The time limit counts this run only, so the same command
 * goes on; the size and page limits every run's captures and fetches, so only a larger one does,
 * which a resume takes from the ICD file given (resume-icd.ts), or for pages from --max-pages.
 */
export function limitAdvice(endedBy: CrawlLimit, icdPath: string | undefined, maxPagesFlag = false): string {
  if (endedBy === 'time-limit') return 'run the same command again to go on (the limit counts each run alone)';
  // --max-pages, given, sets the limit over the ICD file's scope.maxPages.
  if (endedBy === 'page-limit') {
    return icdPath && !maxPagesFlag
      ? `raise scope.maxPages in ${icdPath} (or give a larger --max-pages) and run the same command again to go on (the limit counts every run's pages)`
      : 'run the same command again with a larger --max-pages to go on (the limit counts every run\'s pages)';
  }
  return icdPath
    ? `raise scope.maxBytes in ${icdPath} (or set it to 0, no limit) and run the same command again to go on`
    : 'run it again with an ICD file of the same seeds and a larger scope.maxBytes (0: no limit), with the same --out, to go on';
}

/** TIDEMARK_TEST_ROBOTS_BACKOFF_MS (tests only): waits between tries of a robots.txt from this base, capped at 20 times it as the default's 30 s and 10 minutes; unset, the default. */
function robotsBackoffOf(value: string | undefined): BackoffConfig | undefined {
  const baseMs = Number(value);
  return Number.isFinite(baseMs) && baseMs > 0 ? { baseMs, maxMs: 20 * baseMs } : undefined;
}

function formatError(err: unknown): string {
  if (err instanceof ZodError) return 'Invalid ICD:\n' + issueLines(err.issues);
  return err instanceof Error ? err.message : String(err);
}

/**
 * `tidemark check`, stopped by a Ctrl-C (or SIGTERM) within the file it reads, as `--wacz`'s
 * packaging is: exit code 3 (interrupted); a second one ends the process at once, 130.
 */
async function checkUntilInterrupted(cmd: CheckCommand): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort(new Error('interrupted'));
    console.error('tidemark: interrupted, stopping the check (Ctrl-C again to abort)…');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return (await runCheck(cmd, stop.signal)) ?? 3;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** `tidemark crawl …` or `tidemark check …`: returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  boundRegExpBacktracking();
  let cmd: CrawlCommand;
  let icd: Icd;
  try {
    const parsed = parseCliArgs(argv);
    if (parsed.command === 'help') {
      console.log(USAGE);
      return 0;
    }
    if (parsed.command === 'check') return await checkUntilInterrupted(parsed);
    cmd = parsed;
    icd = icdForCommand(cmd);
  } catch (err) {
    console.error(formatError(err));
    return 2;
  }
  const out = resolve(cmd.out);
  let db: ReturnType<typeof openSqlite>;
  try {
    holdDataLock(out, 'a tidemark crawl');
    db = openSqlite(join(out, 'tidemark-state.db'));
    applyMigrations(db, MIGRATIONS_DIR);
  } catch (err) {
    // A file in the way, no permission, a full disk: say which folder, not a stack trace.
    console.error(`Cannot use --out ${out}: ${(err as Error).message}`);
    return 2;
  }
  const existing = db.prepare('SELECT id, definition FROM Crawl ORDER BY id LIMIT 1').get() as { id: number; definition: string } | undefined;
  let crawlId: number;
  let notice: string | null = null;
  /** The stored settings this version refuses that this run replaced from its ICD file. */
  let icdReplaced: FieldReplacement[] = [];
  if (existing) {
    crawlId = existing.id;
    removeLegacySpool(out);
    // A resumed crawl keeps its ICD but for its limits, which this run's ICD file and flags set (resume-icd.ts).
    let stored = JSON.parse(existing.definition) as Record<string, unknown>;
    const given = icd;
    if (refusedFields(stored).length) {
      // An earlier version started it with settings this one refuses: the ICD file given corrects them.
      const repair = repairFromIcdFile(out, stored, given, cmd.icdPath);
      if ('message' in repair) {
        console.error(repair.message);
        db.close();
        return 2;
      }
      db.transaction(() => storeIcdReplacement(db, crawlId, repair, { source: `cli ${cmd.icdPath}`, replacedById: null, previousDefinition: existing.definition }))();
      stored = repair.repaired as unknown as Record<string, unknown>;
      icdReplaced = repair.replaced;
      console.error(repairNotice(out, cmd.icdPath!, repair.replaced));
    }
    let replaced: string | null;
    try {
      const before = withOverrides(stored, { scope: {}, politeness: {} });
      icd = withOverrides(stored, resumeOverrides(given, Boolean(cmd.icdPath), before.seeds, flagSettings(cmd)));
      replaced = replacedNotice(out, before, icd);
    } catch (err) {
      console.error(formatError(err));
      db.close();
      return 2;
    }
    if (replaced) console.error(replaced);
    notice = resumeNotice(out, icd, given);
    // Said with --json too, and in its summary: a script that gave other seeds must not take the
    // stored crawl's summary for one of its own.
    if (notice) console.error(notice);
  } else {
    const now = sqlDate(new Date());
    const definition = JSON.stringify(icd);
    const icdRow = db.prepare('INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES (?, ?, ?, ?)').run(icd.name, definition, now, now);
    crawlId = Number(
      db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt, startedAt) VALUES (?, ?, ?, 'running', 'run', ?, ?)")
        .run(icdRow.lastInsertRowid, definition, icd.name, now, now).lastInsertRowid,
    );
  }
  // Off the crawl thread: a checkpoint fsyncs the WAL, and every host timer would wait for it.
  const checkpointer = startWalCheckpointer(db);
  const engine = new CrawlEngine({
    crawlId,
    icd,
    db,
    warcDir: out,
    // Emptied at every start and end: a name no other tool's folder in --out would have.
    spoolDir: join(out, CLI_SPOOL_NAME),
    kbPath: existsSync(DEFAULT_KB_PATH) ? DEFAULT_KB_PATH : undefined,
    objectsJsonlPath: join(out, 'objects.jsonl'),
    // A test switch: widens the window between a page's commit and its objects' append (crawl-engine.ts).
    objectsWriteDelayMs: Number(process.env.TIDEMARK_TEST_OBJECTS_WRITE_DELAY_MS) || undefined,
    // A test switch: the base wait between tries of a robots.txt (default 30 s, capped at 20 times it).
    robotsBackoff: robotsBackoffOf(process.env.TIDEMARK_TEST_ROBOTS_BACKOFF_MS),
    // A test switch: the AAH's time budget per page, in ms (wall-clock: a loaded machine skips slow pages).
    aahBudgetMs: Number(process.env.TIDEMARK_TEST_AAH_BUDGET_MS) || undefined,
  });
  // A crawl runs for minutes to days: say how it goes, as Heritrix's progress log and wget do.
  const everyMs = progressEveryMs(cmd, Boolean(process.stderr.isTTY));
  const progress = everyMs ? reportProgress(() => engine.stats(), process.stderr, { tty: Boolean(process.stderr.isTTY), everyMs }) : null;
  let interrupted = false;
  // Aborted by the first Ctrl-C: a package under way (or not yet begun) is not written.
  const packaging = new AbortController();
  let packagingBegun = false;
  const onSignal = () => {
    if (interrupted) {
      if (cmd.wacz) removePartialPackage(out);
      process.exit(130);
    }
    interrupted = true;
    packaging.abort(new Error('interrupted'));
    progress?.clear();
    if (!cmd.json) {
      console.error(packagingBegun
        ? `tidemark: interrupted, stopping the packaging of ${CLI_WACZ_NAME} (the WARC files are whole; Ctrl-C again to abort)…`
        : `tidemark: interrupted, finishing in-flight pages (fetches still under way after ${HALT_GRACE_MS / 1000} s go back to the queue; Ctrl-C again to abort)…`);
    }
    void engine.pause();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // The rate is of this run's pages: a resumed crawl's counters include the runs before.
  const fetchedBefore = db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(crawlId) as number;
  const ranFor = startStopwatch();
  const outcome = await engine.run();
  progress?.stop();
  const stats = engine.stats();
  try {
    db.prepare('UPDATE Crawl SET status = ?, stats = ?, finishedAt = ? WHERE id = ?').run(
      outcome === 'finished' ? 'finished' : 'paused', JSON.stringify(stats), sqlDate(new Date()), crawlId);
  } catch (err) {
    // A full disk: the crawl's state is in its frontier already, and the next run resumes from it.
    if (!isStorageFailure(err)) throw err;
  }
  const durationS = ranFor() / 1000;
  // Packaged only when finished: a paused crawl resumes, and its package would be partial.
  packagingBegun = cmd.wacz && outcome === 'finished';
  if (packagingBegun && !cmd.json && !packaging.signal.aborted) console.error('tidemark: verifying the WARC files and packaging crawl.wacz…');
  const packaged = packagingBegun ? await packageOutput(db, crawlId, out, cmd.pageText, packaging.signal) : {};
  const seeds = await seedProblems(db, crawlId, icd, out).catch((err: Error) => {
    console.error(`tidemark: the seeds could not be checked: ${err.message}`);
    return { problems: [], notListed: 0 };
  });
  let crawlLog: { crawlLog: string } | { crawlLogError: string };
  try {
    crawlLog = { crawlLog: writeCrawlLogFile(db, crawlId, out) };
  } catch (err) {
    crawlLog = { crawlLogError: (err as Error).message };
  }
  await checkpointer.stop();
  db.close();
  const summary = {
    outcome,
    pages: stats.fetched,
    bytes: stats.bytes,
    failures: stats.failed,
    failuresByReason: stats.failedByReason,
    excluded: stats.excluded,
    excludedByReason: stats.excludedByReason,
    durationSeconds: Number(durationS.toFixed(3)),
    pagesPerSecond: Number(((stats.fetched - fetchedBefore) / Math.max(durationS, 1e-3)).toFixed(1)),
    out,
    ...(engine.pausedBecause ? { pausedBecause: engine.pausedBecause } : {}),
    // Finished by the ICD's time, size or page limit with URLs still queued.
    ...(stats.endedBy ? { endedBy: stats.endedBy, queued: stats.queued } : {}),
    seedProblems: seeds.problems,
    // Only when the list was cut: how many more seeds did not end on a capture.
    ...(seeds.notListed ? { seedProblemsNotListed: seeds.notListed } : {}),
    ...(notice ? { resumeNotice: notice.replace(/^tidemark: /, '') } : {}),
    // The provenance of the captures: settings of the crawl replaced before this run went on.
    ...(icdReplaced.length ? { storedIcdReplaced: icdReplaced } : {}),
    ...crawlLog,
    ...packaged,
  };
  if (cmd.json) console.log(JSON.stringify(summary));
  else {
    console.log(`${outcome}: ${summary.pages} pages, ${(summary.bytes / 1e6).toFixed(1)} MB in ${summary.durationSeconds} s (${summary.pagesPerSecond} pages/s)`);
    // Paused by Ctrl-C as much as by a full disk: the same command goes on.
    if (outcome !== 'finished') console.log('Run the same command again to resume.');
    if (icdReplaced.length) console.log(`stored settings this version refuses, replaced by ${cmd.icdPath}'s: ${icdReplaced.map(replacementLine).join(', ')}`);
    if (stats.endedBy) console.log(`ended by its ${LIMIT_NAMES[stats.endedBy]} limit with ${stats.queued} URLs queued: ${limitAdvice(stats.endedBy, cmd.icdPath, cmd.maxPages !== undefined)}`);
    if (summary.failures) console.log(`failures: ${reasonCounts(summary.failuresByReason)}`);
    // An excluded seed (its robots.txt unreachable, say) is why a crawl finds nothing: say so.
    if (summary.excluded) console.log(`excluded: ${reasonCounts(summary.excludedByReason)}`);
    // A seed redirecting out of scope, refused or failing is why a crawl finds little: each is named.
    for (const p of seeds.problems) console.log(`seed ${p.seed}: ${p.outcome}`);
    if (seeds.notListed) console.log(`and ${seeds.notListed} more seeds that did not end on a capture (in ${CLI_CRAWL_LOG_NAME})`);
    console.log(`WARC files, index.cdxj${'crawlLog' in crawlLog ? ` and ${CLI_CRAWL_LOG_NAME}` : ''} in ${out}`);
    if ('wacz' in packaged) console.log(`WACZ package: ${packaged.wacz}`);
  }
  // Not a failure of the crawl: its WARC files and index are whole; the log is in its database.
  if ('crawlLogError' in crawlLog) console.error(`tidemark: ${CLI_CRAWL_LOG_NAME} could not be written: ${crawlLog.crawlLogError}`);
  if ('waczError' in packaged) {
    console.error(`tidemark: the WACZ package could not be written: ${packaged.waczError}`);
    // Interrupted, as a paused crawl is: the same command packages it.
    return packaged.waczError === WACZ_INTERRUPTED ? 3 : 1;
  }
  return outcome === 'finished' ? 0 : 3;
}
