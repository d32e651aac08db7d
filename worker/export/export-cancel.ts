import type Database from 'better-sqlite3';
import { onRowInWriteTransaction, sqlDate } from '../store/sqlite';
import type { CrawlRequestOutcome } from '../process/crawl-requests';
import { exportCancelRefusal } from '../process/crawl-control';

/** An export as a cancel left it. */
export interface CancelledExport {
  id: number;
  status: 'cancelled';
  cancelledBy: string;
  cancelledAt: Date;
}

/**
 * Marks a pending or running export cancelled by `username`, now (its row: status, who, when,
 * finishedAt). A running one is stopped by its worker within CANCEL_POLL_MS and a moment more
 * (watchCancellation), which removes what it had written; a pending one is never started. The check
 * and the write are one immediate transaction, so a worker finishing the export meanwhile comes
 * before (the cancel is refused: it is done) or after (its done is not written).
 */
export function cancelExport(db: Database.Database, exportId: number, username: string): CrawlRequestOutcome<CancelledExport> {
  const outcome = onRowInWriteTransaction(
    db,
    () => db.prepare('SELECT status FROM Export WHERE id = ?').get(exportId) as { status: string } | undefined,
    (row): { done: CancelledExport } | { refused: string } => {
      const refusal = exportCancelRefusal(row.status);
      if (refusal) return { refused: refusal };
      const cancelledAt = new Date();
      db.prepare("UPDATE Export SET status = 'cancelled', cancelledBy = ?, cancelledAt = ?, finishedAt = ? WHERE id = ?")
        .run(username, sqlDate(cancelledAt), sqlDate(cancelledAt), exportId);
      return { done: { id: exportId, status: 'cancelled', cancelledBy: username, cancelledAt } };
    },
  );
  return outcome;
}

/** How often a running export looks whether it was cancelled: it stops within about this much. */
export const CANCEL_POLL_MS = 200;

/**
 * Aborts `signal` once the export's row says it was cancelled (or is gone: its crawl was deleted),
 * looked at every CANCEL_POLL_MS; `stop` ends the watch. The cockpit and the worker share only the
 * database, so the worker reads it rather than hearing a message.
 */
export function watchCancellation(db: Database.Database, exportId: number): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const read = db.prepare('SELECT status FROM Export WHERE id = ?').pluck();
  const timer = setInterval(() => {
    let status: string | undefined;
    try {
      status = read.get(exportId) as string | undefined;
    } catch {
      // A busy or failing database: looked at again at the next interval.
      return;
    }
    if (status === undefined || status === 'cancelled') {
      clearInterval(timer);
      controller.abort(new ExportCancelled(exportId));
    }
  }, CANCEL_POLL_MS);
  timer.unref();
  return { signal: controller.signal, stop: () => clearInterval(timer) };
}

/** The reason a cancelled export's work was aborted with. */
export class ExportCancelled extends Error {
  constructor(readonly exportId: number) {
    super(`Export ${exportId} was cancelled`);
  }
}
