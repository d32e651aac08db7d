import { isStorageFailure } from '../../store/storage-failure';
import { outlinkOf } from '../../warc';
import { PROCEED, type Stage } from '../stage';

/**
 * Writes the exchange as request + response (or revisit) records with the out-links in a metadata
 * record, and the page's Web objects as JSON metadata records right behind it. Takes a commit
 * ticket first, so the database acknowledges captures in the order they sit in the WARC files.
 */
export const warcStage: Stage = {
  name: 'warc',
  shouldProcess: (item) => Boolean(item.exchange),
  async process(item, ctx) {
    const ex = item.exchange!;
    item.ticket = ctx.sequencer.ticket();
    // One Heritrix-style `outlink:` line a link (metadataBlock expands the key `outlinks`).
    const outlinks = (item.links ?? []).map(outlinkOf);
    const capture = ctx.writer.writeCapture(ex, { metadata: outlinks.length ? { outlinks } : undefined });
    const objects = (item.objects ?? []).map(({ url = item.url, ...webObject }) => ctx.writer.writeMetadata(url, { webObject }));
    const [written, ...objectsWritten] = await Promise.allSettled([capture, ...objects]);
    if (written!.status === 'rejected') throw written!.reason;
    const location = written!.value;
    for (const o of objectsWritten) {
      if (o.status === 'fulfilled') continue;
      // A full disk or stopped compression threads pause the crawl; nothing after is acknowledged.
      if (isStorageFailure(o.reason)) throw o.reason;
      // One object's record could not be made: the page's capture is written and is acknowledged
      // (its WARC file is cut back to the first capture never acknowledged after a crash).
      console.error(`tidemark: a Web object of ${item.url} was not archived: ${(o.reason as Error).message}`);
    }
    item.location = { filename: location!.filename, offset: location!.offset, length: location!.length, recordType: location!.type === 'revisit' ? 'revisit' : 'response', recordId: location!.recordId };
    return PROCEED;
  },
};
