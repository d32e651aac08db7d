import { readStoredRecord } from '../../../worker/warc/read-record';
import { headersRecord } from '../../../worker/fetch/http-heads';
import { decodeText } from '../../../worker/extract/charset';
import { services } from './services';
import { crawlWarcDir } from '../../../worker/store/data-layout';

/**
 * A captured page as archived (used by the knowledge-base tester): its payload as text, decoded in
 * the charset the crawl's extraction sniffed (Content-Type, BOM, <meta>…), its Content-Type (null
 * when none was sent), which tells the tester whether a crawl analyses it, and its response
 * headers as the crawl's AAH saw them (lower-case names; `<header>` signals read them).
 */
export async function readCapturedPage(crawlId: number, warcFile: string, offset: number): Promise<{ html: string; contentType: string | null; headers: Record<string, string> }> {
  const record = await readStoredRecord(crawlWarcDir(services().env.dataDir, crawlId), warcFile, offset);
  const raw = (record.httpHead ?? '').split(/\r?\n/).slice(1).flatMap((line) => {
    const colon = line.indexOf(':');
    return colon > 0 ? [line.slice(0, colon).trim(), line.slice(colon + 1).trim()] : [];
  });
  return { html: decodeText(record.payload, record.contentType), contentType: record.contentType, headers: headersRecord(raw) };
}
