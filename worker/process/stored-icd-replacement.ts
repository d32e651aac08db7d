import type Database from 'better-sqlite3';
import { ZodError, type z } from 'zod';
import { issueLines } from '../icd/plain-issues';
import { repairStoredIcd, STORED_ICD_REFUSED, type FieldReplacement, type IcdRepair, type RefusedField } from '../icd/stored-icd-repair';
import { exportUnderWay } from '../export/export-job';
import { onRowInWriteTransaction, sqlDate } from '../store/sqlite';
import type { CrawlRequestOutcome } from './crawl-requests';

/**
 * A crawl whose stored ICD this version refuses (an earlier version created it with settings the
 * rules refuse since: an exclude pattern that can backtrack, a weight over 1,000…): the worker pauses
 * it with the reason, and the archivist corrects the refused settings and resumes it. Before, the
 * worker marked it failed, and its captured work could not be taken further.
 */

/** Why a crawl's stored definition cannot run, in words, each refused field on its line, and what to do. */
export function storedIcdProblem(err: unknown): string {
  if (!(err instanceof ZodError)) return `Invalid ICD: ${(err as Error).message}`;
  return `${STORED_ICD_REFUSED}, so it cannot run:\n${issueLines(err.issues)}\nCorrect these settings (Correct the refused settings, on the crawl's page) and resume it.`;
}

/**
 * Why a plain resume of a crawl whose stored ICD has the `refused` fields is refused, naming each
 * field and its problems, and where to correct them; null when nothing is refused. Accepted, the
 * worker paused the crawl again at once, and the archivist saw it bounce.
 */
export function resumeRefusal(refused: readonly RefusedField[], crawlId: number): string | null {
  if (refused.length === 0) return null;
  const problems = refused.flatMap((r) => r.problems).join('; ');
  const fields = refused.map((r) => r.field).join(', ');
  return `${STORED_ICD_REFUSED}, so it cannot be resumed as it is. Refused: ${problems}. Correct ${fields} first, on the crawl's page (Correct the refused settings, then Correct and resume) or with POST /api/crawls/${crawlId}/stored-icd.`;
}

/**
 * Why the crawl's refused settings cannot be corrected now, or null when they can: it is paused and
 * not being resumed (the worker may be launching it), or it failed because of them (a version before
 * this one marked such a crawl failed). Any other failed, stopped or finished crawl has ended.
 */
export function icdRepairRefusal(status: string, desired: string, error: string | null): string | null {
  if (status === 'paused' && desired !== 'run') return null;
  if (status === 'failed' && error?.startsWith(STORED_ICD_REFUSED)) return null;
  if (status === 'paused') return 'The crawl is being resumed: wait until it is paused again, then correct its settings';
  return `The crawl is ${status}: only a paused crawl's refused settings can be corrected`;
}

/** One replacement of a crawl's refused settings, as CrawlIcdReplacement keeps it. */
export interface IcdReplacementRecord {
  /** 'cockpit', or `cli <ICD file>` */
  source: string;
  replacedById: number | null;
  /** Crawl.definition as it was. */
  previousDefinition: string;
}

/**
 * Stores the repaired ICD as the crawl's copy and, in CrawlIcdReplacement, what it replaced and the
 * definition as it was (the captures made before keep their provenance). An exclude pattern the
 * correction brings is stored as a live exclusion too: the ICD's patterns judge links as they are
 * found, so the URLs queued before would otherwise be fetched though it matches them; its engine
 * excludes them as it starts (live-exclusions.ts). In the caller's transaction.
 */
export function storeIcdReplacement(db: Database.Database, crawlId: number, repair: Extract<IcdRepair, { repaired: unknown }>, record: IcdReplacementRecord, now = new Date()): void {
  db.prepare('UPDATE Crawl SET definition = ? WHERE id = ?').run(JSON.stringify(repair.repaired), crawlId);
  db.prepare('INSERT INTO CrawlIcdReplacement (crawlId, replacedAt, source, replacedById, changes, previousDefinition) VALUES (?, ?, ?, ?, ?, ?)')
    .run(crawlId, sqlDate(now), record.source, record.replacedById, JSON.stringify(repair.replaced), record.previousDefinition);
  const exclusion = db.prepare('INSERT OR IGNORE INTO CrawlExclusion (crawlId, pattern, addedById, addedAt) VALUES (?, ?, ?, ?)');
  for (const pattern of excludePatternsAdded(repair.replaced)) exclusion.run(crawlId, pattern, record.replacedById, sqlDate(now));
}

/** The exclude patterns a repair's `scope.exclude` has that the stored one had not. */
function excludePatternsAdded(replaced: readonly FieldReplacement[]): string[] {
  const exclude = replaced.find((r) => r.field === 'scope.exclude');
  if (!exclude) return [];
  const before = new Set(Array.isArray(exclude.before) ? exclude.before : []);
  return (exclude.after as string[]).filter((pattern) => !before.has(pattern));
}

/** A crawl's replacements of refused settings, oldest first. */
export function icdReplacements(db: Database.Database, crawlId: number): { replacedAt: string; source: string; replacedById: number | null; changes: FieldReplacement[] }[] {
  const rows = db.prepare('SELECT replacedAt, source, replacedById, changes FROM CrawlIcdReplacement WHERE crawlId = ? ORDER BY id').all(crawlId) as { replacedAt: string; source: string; replacedById: number | null; changes: string }[];
  return rows.map((row) => ({ ...row, changes: JSON.parse(row.changes) as FieldReplacement[] }));
}

type RepairOutcome = CrawlRequestOutcome<FieldReplacement[]> | { invalid: readonly z.core.$ZodIssue[] };

/**
 * Corrects the crawl's refused settings from the cockpit (`corrections`: refused field → value; see
 * repairStoredIcd) and, with `resume`, asks for it to run. The crawl waits paused (a crawl failed for
 * them becomes paused); its error is cleared. Check and writes are one immediate transaction, so a
 * resume or a worker launching it comes before or after, never between.
 */
export function correctRefusedSettings(
  db: Database.Database, crawlId: number, corrections: Readonly<Record<string, unknown>>, opts: { userId: number | null; resume: boolean },
): RepairOutcome {
  type Row = { status: string; desired: string; error: string | null; definition: string };
  return onRowInWriteTransaction(db, () => db.prepare('SELECT status, desired, error, definition FROM Crawl WHERE id = ?').get(crawlId) as Row | undefined, (crawl): RepairOutcome => {
    const refusal = icdRepairRefusal(crawl.status, crawl.desired, crawl.error);
    if (refusal) return { refused: refusal };
    const exporting = opts.resume ? exportUnderWay(db, crawlId) : null;
    if (exporting !== null) return { refused: `Export ${exporting} of this crawl is under way: resume the crawl once it is done or failed` };
    const repair = repairStoredIcd(JSON.parse(crawl.definition) as Record<string, unknown>, corrections);
    if (!('repaired' in repair)) return repair;
    storeIcdReplacement(db, crawlId, repair, { source: 'cockpit', replacedById: opts.userId, previousDefinition: crawl.definition });
    db.prepare("UPDATE Crawl SET status = 'paused', desired = ?, error = NULL WHERE id = ?").run(opts.resume ? 'run' : 'pause', crawlId);
    return { done: repair.replaced };
  });
}
