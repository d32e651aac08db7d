import { outlinkOf } from '../../warc';
import { PROCEED, type Stage } from '../stage';
import { checkObjectRecords, webObjectRecords } from '../web-object-records';

/**
 * Writes the exchange as request + response (or revisit) records with the out-links in a metadata
 * record, and the page's Web objects as JSON metadata records right behind it, about the capture.
 * Takes a commit ticket first, so the database acknowledges captures in the order they sit in the
 * WARC files.
 */
export const warcStage: Stage = {
  name: 'warc',
  shouldProcess: (item) => Boolean(item.exchange),
  async process(item, ctx) {
    const ex = item.exchange!;
    item.ticket = ctx.sequencer.ticket();
    // One Heritrix-style `outlink:` line a link (metadataBlock expands the key `outlinks`).
    const outlinks = (item.links ?? []).map(outlinkOf);
    const written = await ctx.writer.writeCapture(ex, {
      metadata: outlinks.length ? { outlinks } : undefined,
      objects: webObjectRecords(item.url, item.objects ?? []),
    });
    checkObjectRecords(item.url, written);
    item.location = { filename: written.filename, offset: written.offset, length: written.length, recordType: written.type === 'revisit' ? 'revisit' : 'response', recordId: written.recordId };
    return PROCEED;
  },
};
