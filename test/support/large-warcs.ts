import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WarcWriter, crawlWarcId } from '../../worker/warc';
import { openSqlite } from '../../worker/store/sqlite';
import { crawlWarcDir } from '../../worker/store/data-layout';
import { icdSchema } from '../../worker/icd/schema';
import { insertCrawl } from './crawl-rows';
import { makeExchange } from '../unit/warc/make-exchange';

/**
 * Writes `records` responses of 1 MB each (each body its own, so none is a revisit) with the crawl's
 * own writer into `dir`, stored uncompressed (written fast), a new file begun every `perFile`
 * records; the names of the `.warc.gz` files written. `slug` names the files (crawlWarcId for a
 * crawl's own folder).
 */
export async function writeLargeWarcs(dir: string, slug: string, records: number, perFile = records): Promise<string[]> {
  const writer = new WarcWriter({
    dir, crawlId: slug, software: 'Tidemark/test', robotsPolicy: 'obey', userAgent: 'tidemark-test', threads: 1, gzipLevel: 0, rotateBytes: perFile * (1 << 20),
  });
  await writer.open();
  const body = Buffer.alloc(1 << 20);
  for (let i = 0; i < body.length; i++) body[i] = (i * 2654435761) >>> 24;
  for (let i = 0; i < records; i++) {
    body.writeUInt32BE(i, 0);
    await writer.writeCapture(makeExchange({ url: `http://127.0.0.1:9/hold/${i}`, body: Buffer.from(body), contentType: 'application/octet-stream' }));
  }
  await writer.close();
  return readdirSync(dir).filter((n) => n.endsWith('.warc.gz')).sort();
}

/**
 * A finished crawl named `name` in the server's database under `dataDir` (a running cockpit's), its
 * WARC files `files` × `perFile` responses of 1 MB written into its folder (writeLargeWarcs); its id.
 */
export async function finishedLargeCrawl(dataDir: string, name: string, files: number, perFile: number): Promise<number> {
  const db = openSqlite(join(dataDir, 'tidemark.db'));
  let crawlId: number;
  try {
    crawlId = insertCrawl(db, icdSchema.parse({ name, seeds: ['http://127.0.0.1:9/'] }));
    db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
  } finally {
    db.close();
  }
  await writeLargeWarcs(crawlWarcDir(dataDir, crawlId), crawlWarcId(crawlId), files * perFile, perFile);
  return crawlId;
}
