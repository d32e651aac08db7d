import type { CaptureObject, CaptureWritten } from '../warc';
import { isStorageFailure } from '../store/storage-failure';
import type { CrawlItem } from './stage';

/**
 * A page's Web objects as the JSON metadata records (`{"webObject": …}`) written with its capture,
 * about it. Objects with a `url` are an earlier page's (an adapted rule adopted on this one): not
 * extracted from this capture, their records name none.
 */
export function webObjectRecords(pageUrl: string, objects: NonNullable<CrawlItem['objects']>): CaptureObject[] {
  return objects.map(({ url, ...webObject }) => ({ targetUri: url ?? pageUrl, json: { webObject }, ...(url ? { about: null } : {}) }));
}

/**
 * How the records of a page's Web objects fared: a full disk or stopped compression threads throw
 * (the crawl pauses, the capture is not acknowledged); an object whose record could not be made is
 * logged, and the page's capture stays (its WARC file is cut back to the first capture never
 * acknowledged after a crash).
 */
export function checkObjectRecords(pageUrl: string, written: CaptureWritten): void {
  for (const o of written.objects) {
    if (o.status === 'fulfilled') continue;
    if (isStorageFailure(o.reason)) throw o.reason;
    console.error(`tidemark: a Web object of ${pageUrl} was not archived: ${(o.reason as Error).message}`);
  }
}
