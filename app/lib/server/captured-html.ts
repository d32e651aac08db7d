import { readStoredRecord } from '../../../worker/warc/read-record';
import { services } from './services';
import { crawlWarcDir } from '../../../worker/store/data-layout';

/**
 * A captured page as archived (used by the knowledge-base tester): its payload as UTF-8 text and its
 * Content-Type (null when none was sent), which tell the tester whether a crawl analyses it.
 */
export async function readCapturedPage(crawlId: number, warcFile: string, offset: number): Promise<{ html: string; contentType: string | null }> {
  const record = await readStoredRecord(crawlWarcDir(services().env.dataDir, crawlId), warcFile, offset);
  return { html: Buffer.from(record.payload).toString('utf8'), contentType: record.contentType };
}
