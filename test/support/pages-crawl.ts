import type Database from 'better-sqlite3';
import { WarcWriter, type CaptureWritten } from '../../worker/warc';
import { sqlDate } from '../../worker/store/sqlite';
import { makeExchange } from '../unit/warc/make-exchange';

/**
 * Writes a crawl of `pages` HTML pages on 127.0.0.1:9 into `warcDir` with the crawl's own writer,
 * each page embedding an image of its own (its out-links metadata says so, as the crawl writes it),
 * and stores their Capture rows as the crawl's commits would: 2 × `pages` captures, pages at depth
 * 1 after the first. Returns the number of captures.
 */
export async function writePagesCrawl(db: Database.Database, crawlId: number, warcDir: string, pages: number): Promise<number> {
  const writer = new WarcWriter({ dir: warcDir, crawlId: `pages-${crawlId}`, software: 'Tidemark/test', robotsPolicy: 'obey', userAgent: 'tidemark-test', threads: 1 });
  await writer.open();
  const insert = db.prepare(
    `INSERT INTO Capture (crawlId, url, status, mime, size, payloadDigest, recordType, warcFile, warcOffset, warcLength, warcRecordId, depth, title, fetchedAt, durationMs)
     VALUES (?, ?, 200, ?, ?, ?, 'response', ?, ?, ?, ?, ?, ?, ?, 0)`,
  );
  const origin = 'http://127.0.0.1:9';
  const fetchedAt = sqlDate(new Date('2024-05-06T07:08:09.000Z'));
  let captures = 0;
  const store = db.transaction((rows: Array<{ url: string; mime: string; body: Buffer; at: CaptureWritten; depth: number; title: string | null }>) => {
    for (const r of rows) {
      insert.run(crawlId, r.url, r.mime, r.body.length, makeExchange({ url: r.url, body: r.body }).payloadDigest, r.at.filename, r.at.offset, r.at.length, r.at.recordId, r.depth, r.title, fetchedAt);
      captures++;
    }
  });
  for (let from = 0; from < pages; from += 500) {
    const written: Array<Promise<{ url: string; mime: string; body: Buffer; at: CaptureWritten; depth: number; title: string | null }>> = [];
    for (let i = from; i < Math.min(pages, from + 500); i++) {
      const url = `${origin}/page/${i}`;
      const image = `${origin}/img/${i}.png`;
      const title = `Quay ${i}`;
      const html = Buffer.from(`<!doctype html><title>${title}</title><img src="/img/${i}.png"><p>Berth ${i} of the harbour, ${'tide '.repeat(20)}</p><a href="/page/${i + 1}">next</a>`);
      const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(`berth ${i}`)]);
      const outlinks = [{ url: image, hop: 'E', tag: 'img/@src' }, { url: `${origin}/page/${i + 1}`, hop: 'L', tag: 'a/@href' }];
      const depth = i === 0 ? 0 : 1;
      written.push(writer.writeCapture(makeExchange({ url, body: html }), { metadata: { outlinks } }).then((at) => ({ url, mime: 'text/html', body: html, at, depth, title })));
      written.push(writer.writeCapture(makeExchange({ url: image, body: png, contentType: 'image/png' })).then((at) => ({ url: image, mime: 'image/png', body: png, at, depth: depth + 1, title: null })));
    }
    store(await Promise.all(written));
  }
  await writer.close();
  return captures;
}
