import type { ExportFormat } from '../../../worker/export/collection-plan';
import type { ExportRecord, SelectionInput } from './queries';

/** What the exports form asks for. */
export interface ExportAsk {
  crawlId: number;
  selection?: SelectionInput;
  format: ExportFormat;
  pageText: boolean;
  /** Other crawls of the ICD taken besides (sorted). */
  otherCrawls?: readonly number[];
}

/** The same export asked twice: the same crawl, other crawls, selection and format (page text counts only in a WACZ). */
export function sameExportAsk(a: ExportAsk, b: ExportAsk): boolean {
  const key = (x: ExportAsk) => JSON.stringify([x.crawlId, x.selection ?? null, x.format, x.format === 'wacz' && x.pageText, [...(x.otherCrawls ?? [])].sort((m, n) => m - n)]);
  return key(a) === key(b);
}

/**
 * The id of the export last requested (`last`) while it is still pending or running and the form
 * asks for it again (`current`), else null. Request export waits for it: the request is pending
 * only until the server answers, and the second click of a double-click, 150–250 ms after the
 * first, then requested a second, identical export. An export not listed yet counts as pending;
 * once it has ended, or the form asks for another, it may be requested again.
 */
export function exportUnderWayFor(last: { ask: ExportAsk; id: number } | undefined, current: ExportAsk | null, listed: readonly ExportRecord[] | undefined): number | null {
  if (!last || !current || !sameExportAsk(last.ask, current)) return null;
  const status = listed?.find((e) => e.id === last.id)?.status ?? 'pending';
  return status === 'pending' || status === 'running' ? last.id : null;
}
