import { mediaTypeOf } from '../../warc';
import { PROCEED, type Stage } from '../stage';
import { fingerprintHtml } from '../page-fingerprint';

/**
 * Visit–revisit captures: keeps the visit fingerprint of every HTML page (validators, digests,
 * shingle sketch, out-links) so the revisit pass can prove it unchanged. The row is keyed by URL
 * and replaced if the page is fetched again after a crash, so it needs no place in the commit.
 */
export const coherenceStage: Stage = {
  name: 'coherence',
  shouldProcess: (item, ctx) =>
    ctx.icd.coherence.mode === 'visit-revisit' && Boolean(item.html && item.exchange && item.exchange.status >= 200 && item.exchange.status < 300),
  process(item, ctx) {
    const ex = item.exchange!;
    const { fingerprint, text } = fingerprintHtml(ex, item.html!, item.links ?? []);
    ctx.coherence.recordVisit({
      url: item.url,
      parentUrl: ctx.frontier.lookup(ctx.crawlId, item.url)?.viaUrl ?? null,
      depth: item.depth,
      mime: mediaTypeOf(ex.headers['content-type']),
      fingerprint,
      text,
    });
    return PROCEED;
  },
};
