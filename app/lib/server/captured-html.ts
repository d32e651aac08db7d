import { readRecordText } from '../../../worker/warc/read-record';
import { services } from './services';
import { crawlWarcDir } from '../../../worker/store/data-layout';

/** A captured page's HTML as archived (used by the knowledge-base tester). */
export function readCapturedHtml(crawlId: number, warcFile: string, offset: number): Promise<string> {
  return readRecordText(crawlWarcDir(services().env.dataDir, crawlId), warcFile, offset);
}
