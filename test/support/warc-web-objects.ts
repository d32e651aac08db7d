import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WARCParser } from 'warcio';

/** A response or revisit record: what a metadata record about a capture names. */
export interface CaptureRecord {
  id: string;
  date: string;
  url: string;
}

/** A Web object's JSON metadata record, with the capture records around it in the files. */
export interface WebObjectRecord {
  url: string;
  webObject: { type: string; fields: Record<string, string>; rule: string; application: string };
  /** Its WARC-Concurrent-To values (the field may repeat). */
  concurrentTo: string[];
  date: string;
  /** The last response or revisit record of its target URI before it (its page's capture), if any. */
  pageCapture: CaptureRecord | undefined;
  /** The last response or revisit record of any URI before it: the capture it was written behind. */
  writtenBehind: CaptureRecord | undefined;
}

/**
 * Every Web object's metadata record in the folder's WARC files (unfinished `.open` ones too), in
 * file-name and file order, read with warcio as a replay tool would.
 */
export async function warcWebObjects(dir: string): Promise<WebObjectRecord[]> {
  const found: WebObjectRecord[] = [];
  const captureOf = new Map<string, CaptureRecord>();
  let last: CaptureRecord | undefined;
  for (const name of readdirSync(dir).filter((n) => /\.warc\.gz(\.open)?$/.test(n)).sort()) {
    for await (const record of new WARCParser(createReadStream(join(dir, name)), { parseHttp: false })) {
      const url = record.warcTargetURI ?? '';
      const head = { id: record.warcHeader('WARC-Record-ID')!, date: record.warcDate!, url };
      if (record.warcType === 'response' || record.warcType === 'revisit') {
        captureOf.set(url, head);
        last = head;
      }
      // Out-link metadata records are application/warc-fields; Web objects are JSON.
      if (record.warcType !== 'metadata' || record.warcContentType !== 'application/json') continue;
      const json = JSON.parse(await record.contentText()) as { webObject?: WebObjectRecord['webObject'] };
      if (!json.webObject) continue;
      found.push({ url, webObject: json.webObject, concurrentTo: record.warcConcurrentTo ?? [], date: head.date, pageCapture: captureOf.get(url), writtenBehind: last });
    }
  }
  return found;
}
