/**
 * What the archivist may ask of a crawl in each status, as the API applies it to `Crawl.desired`
 * (the worker converges on `desired`). Pure, so the rules are tested without a server.
 */
export type CrawlAction = 'pause' | 'resume' | 'stop';
export const CRAWL_ACTIONS: readonly CrawlAction[] = ['pause', 'resume', 'stop'];

/** The statuses of a crawl that will never run again. */
export const TERMINAL_STATUSES = ['stopped', 'finished', 'failed'] as const;
const TERMINAL = new Set<string>(TERMINAL_STATUSES);

export function isTerminal(status: string): boolean {
  return TERMINAL.has(status);
}

/**
 * The new `desired` value, or an error message when the action makes no sense in this status.
 * `exportUnderWay` is the id of an export of the crawl that is pending or running: the crawl is
 * not resumed until it is done, so the export holds the crawl as it was paused.
 */
export function desiredAfter(status: string, action: CrawlAction, exportUnderWay: number | null = null): { desired: 'run' | 'pause' | 'stop' } | { error: string } {
  if (isTerminal(status)) return { error: `The crawl is ${status}; it cannot be ${action === 'stop' ? 'stopped' : `${action}d`} any more` };
  if (action === 'resume' && exportUnderWay !== null) return { error: `Export ${exportUnderWay} of this crawl is under way: resume the crawl once it is done or failed` };
  switch (action) {
    case 'pause':
      return { desired: 'pause' };
    case 'resume':
      return { desired: 'run' };
    case 'stop':
      return { desired: 'stop' };
  }
}

/**
 * A crawl may be deleted only when no worker is writing it. `created` is excluded: the API creates
 * crawls wanting `run`, so the worker may be opening its WARC folder at this moment; so is a paused
 * crawl asked to resume (`desired` run), which the worker may be launching in this very moment: it
 * would run without its rows, writing a WARC folder nothing deletes again.
 */
export function canDelete(status: string, desired: string): boolean {
  return isTerminal(status) || (status === 'paused' && desired !== 'run');
}

/**
 * An export may be requested only when no worker is writing the crawl, nor about to: the worker
 * makes it from the crawl's files as they are, whatever the crawl does meanwhile. So the same rule
 * as for deleting: a paused crawl asked to resume was refused only once its worker had launched it.
 */
export function canExport(status: string, desired: string): boolean {
  return canDelete(status, desired);
}

/** Why a crawl may not be deleted now (canDelete), or null when it may. */
export function deleteRefusal(status: string, desired: string): string | null {
  return canDelete(status, desired) ? null : `The crawl is ${stateWord(status)}: pause or stop it first`;
}

/** Why a crawl may not be exported now (canExport), in the words the API and the exports page use; null when it may. */
export function exportRefusal(status: string, desired: string): string | null {
  return canExport(status, desired) ? null : `The crawl is ${stateWord(status)}: pause, stop or let it finish before exporting`;
}

/**
 * Why crawl in `status` with `captures` captures has nothing to export, or null: it has ended
 * without capturing anything, and never will (a paused crawl may still). The export job's words
 * and the exports page's, which disables "Request export" with them.
 */
export function noCapturesRefusal(status: string, captures: number): string | null {
  if (!isTerminal(status) || captures > 0) return null;
  return `The crawl ${status === 'stopped' ? 'was stopped' : status} without capturing anything: it has no captures to export`;
}

/** Why an export in `status` cannot be cancelled (it has ended), or null when it can: the API's rule, and the cockpit's Cancel button. */
export function exportCancelRefusal(status: string): string | null {
  return status === 'pending' || status === 'running' ? null : `The export is ${status}: only a pending or running export can be cancelled`;
}

/**
 * Why an export in `status` cannot be deleted (it is pending or running: the worker may be writing
 * its folder), or null once it has ended: the API's rule, and the cockpit's Delete button.
 */
export function exportDeleteRefusal(status: string): string | null {
  return status === 'pending' || status === 'running' ? `The export is ${status}: cancel it first, then delete it` : null;
}

// A paused crawl is refused only when it is asked to resume.
const stateWord = (status: string) => (status === 'paused' ? 'being resumed' : status);

/**
 * Why the crawl takes no more URLs posted to it (POST /api/crawls/:id/urls), in the words of the
 * API's 409; null when it does.
 * - It has ended, or is stopping: it visits no more URLs (a stopping crawl is stopped whatever is
 *   asked meanwhile).
 * - `endedAs`: how it ended when its intake is closed (frontier_intake_closed) while its status
 *   does not say so yet: the engine has finished its visits and is closing its files.
 * - `visitSetClosed`: a visit–revisit capture whose revisit pass has begun (visitSetCloses and its
 *   CoherenceRun stored): it visits no more URLs.
 * One accepted then would wait in vain, and the archivist would not know.
 */
export function intakeRefusal(status: string, visitSetClosed: boolean, endedAs: string | null = null): string | null {
  const ended = isTerminal(status) || status === 'stopping' ? status : endedAs;
  if (ended) return `The crawl is ${ended}: it takes no more URLs`;
  if (visitSetClosed) return "The crawl's revisit pass has begun: a visit–revisit capture visits no more URLs once its reference time is fixed, so it takes no more (start a new crawl for them)";
  return null;
}

/**
 * Why no exclude pattern may be added to the crawl now (POST /api/crawls/:id/exclusions), in the
 * words of the API's 409; null when one may. Refused once the crawl has ended or is being stopped:
 * it visits no more URLs, so the pattern would change nothing. A paused or waiting crawl takes it
 * when it runs. The same for the removal of one (`change` 'remove', DELETE).
 */
export function exclusionRefusal(status: string, desired: string, change: 'add' | 'remove' = 'add'): string | null {
  const nothing = change === 'add' ? 'there is nothing to exclude' : 'removing a pattern would change nothing';
  if (isTerminal(status)) return `The crawl is ${status}: it visits no more URLs, so ${nothing}`;
  if (status === 'stopping' || desired === 'stop') return `The crawl is being stopped: it visits no more URLs, so ${nothing}`;
  return null;
}
