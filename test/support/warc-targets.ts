import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WARCParser } from 'warcio';

/**
 * The target URLs of the records of `types` in the folder's WARC files (unfinished `.open` ones
 * too), one entry a record, in file-name and file order: what a crawl archived, as a replay tool reads it.
 */
export async function warcTargets(dir: string, types: readonly string[]): Promise<string[]> {
  const urls: string[] = [];
  for (const name of readdirSync(dir).filter((n) => /\.warc\.gz(\.open)?$/.test(n)).sort()) {
    for await (const record of new WARCParser(createReadStream(join(dir, name)), { parseHttp: false })) {
      if (types.includes(record.warcType ?? '')) urls.push(record.warcTargetURI!);
    }
  }
  return urls;
}
