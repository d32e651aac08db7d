import type { StuckFiles } from '../../../worker/process/crawl-deletion';
import type { StuckDeletionView } from '../server/crawl-deletion-views';

/** A deleted crawl whose files could not all be removed (GET /api/crawl-deletions), its times as JSON has them. */
export type StuckDeletion = Omit<StuckDeletionView, 'requestedAt' | 'nextTryAt'> & { requestedAt: string; nextTryAt: string | null };

/** The crawl as the notice names it: `Harbour #7`, or `crawl #7` for a deletion asked for before names were kept. */
export function deletedCrawlLabel(d: Pick<StuckDeletion, 'crawlId' | 'crawlName'>): string {
  return d.crawlName === null ? `crawl #${d.crawlId}` : `${d.crawlName} #${d.crawlId}`;
}

/** What stopped one folder's removal, for people: `warcs/7/a.warc.gz could not be removed: operation not permitted (EPERM)`. */
export function stuckFilesWords(stuck: StuckFiles): string {
  if (stuck.failed === 'exports-list') return stuck.message;
  return `${stuck.path} could not be ${stuck.failed === 'read' ? 'read' : 'removed'}: ${stuck.message} (${stuck.code})`;
}

/** Why the deletion's files are still there: each folder's reason, or the logged error of a deletion recorded before reasons were kept. */
export function stuckDeletionReasons(d: Pick<StuckDeletion, 'stuck' | 'error'>): string[] {
  return d.stuck.length ? d.stuck.map(stuckFilesWords) : [d.error];
}

/**
 * When the deletion's files were and will be tried: `time` shows a moment (the notice's own,
 * localTimestamp, in tests a fixed one). Before the crawl's rows are deleted the server tries its
 * files once they are; after, at `nextTryAt`, the wait doubling with each failure up to an hour.
 */
export function stuckDeletionTries(d: Pick<StuckDeletion, 'failedTries' | 'nextTryAt'>, time: (iso: string) => string): string {
  if (d.nextTryAt === null) return 'Tried when the crawl was deleted; the server tries again once its captures and other records are deleted.';
  const failed = d.failedTries === 1 ? 'Failed again once since the crawl was deleted' : `Failed again ${d.failedTries.toLocaleString('en-US')} times in a row since the crawl was deleted`;
  return `${failed}; the server tries again on its own at ${time(d.nextTryAt)}.`;
}

/** The notice's first line: which deleted crawls' files are still on the disk (`total` of them; `shown` listed). */
export function stuckDeletionsSummary(shown: readonly Pick<StuckDeletion, 'crawlId' | 'crawlName'>[], total: number): string {
  const which = total === 1 && shown.length === 1 ? `deleted crawl ${deletedCrawlLabel(shown[0]!)}` : `${total.toLocaleString('en-US')} deleted crawls`;
  return `The files of ${which} could not all be removed from the data folder: the disk space they take is not freed.`;
}
