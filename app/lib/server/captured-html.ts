import { join } from 'node:path';
import { readRecordText } from '../../../worker/warc/read-record';
import { services } from './services';

/** A captured page's HTML as archived (used by the knowledge-base tester). */
export function readCapturedHtml(crawlId: number, warcFile: string, offset: number): Promise<string> {
  return readRecordText(join(services().env.dataDir, 'warcs', String(crawlId)), warcFile, offset);
}
