import { extractFromResponse, pageLinkSettingsOf } from '../extract';
import { outLinksOf } from './plan-out-links';
import { fingerprintHtml } from './page-fingerprint';
import { readRecordResponse } from '../warc/read-record';
import type { PageFingerprint } from '../coherence';
import type { HttpExchange } from '../capture';
import type { CrawlContext } from './crawl-context';

/** A stored 2xx capture whose response record holds the page's payload. */
export interface StoredResponse {
  url: string;
  status: number;
  payloadDigest: string;
  /** Its WARC-Truncated value, null when whole. */
  truncated: string | null;
  fetchedAt: Date;
  warcFile: string;
  warcOffset: number;
  warcLength: number;
}

/**
 * The fingerprint of a stored HTML capture, read back from its WARC record and computed as a visit's
 * is (coherence-stage.ts: the main text, the navigation links of the links the page gives the crawl),
 * so that the first recrawl round of a crawl that kept none judges the page as the later rounds do.
 * Null when the record does not hold a whole HTML page (another type, a payload over the decoding
 * cap) or cannot be read (logged): the round then judges the page by its digest.
 */
export async function storedFingerprint(ctx: CrawlContext, c: StoredResponse): Promise<PageFingerprint | null> {
  try {
    const { headers, payload, cut } = await readRecordResponse(ctx.writer.dir, c.warcFile, c.warcOffset, c.warcLength);
    if (cut || payload.length > ctx.icd.limits.maxDecodedBytes) return null;
    const extracted = extractFromResponse({
      url: c.url, status: c.status, headers, body: payload, truncated: c.truncated !== null, maxDecodedBytes: ctx.icd.limits.maxDecodedBytes,
      ...pageLinkSettingsOf(ctx.icd.scope), text: false,
    });
    if (extracted.kind !== 'html') return null;
    const { links } = outLinksOf(extracted, ctx.icd.scope.maxOutLinksPerPage);
    // Capture.truncated holds the exchange's WARC-Truncated value as it was.
    const truncated = c.truncated as HttpExchange['truncated'];
    return fingerprintHtml({ status: c.status, headers, payloadDigest: c.payloadDigest, date: c.fetchedAt, truncated }, payload, links).fingerprint;
  } catch (err) {
    console.error(`tidemark: the fingerprint of ${c.warcFile}:${c.warcOffset} could not be read: ${(err as Error).message}`);
    return null;
  }
}
