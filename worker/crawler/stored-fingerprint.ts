import { extractFromResponse, pageLinkSettingsOf } from '../extract';
import { outLinksOf } from './plan-out-links';
import { fingerprintHtml } from './page-fingerprint';
import { readRecordResponse } from '../warc/read-record';
import type { PageFingerprint } from '../coherence';
import { cutByFailedFetch, type HttpExchange } from '../capture';
import type { CrawlContext } from './crawl-context';

/** A stored 2xx capture whose response record holds the page's payload. */
interface StoredResponse {
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
 * The fingerprint of the page's stored answer whose payload digest is `payloadDigest`, from the
 * latest 2xx HTML response record holding that payload (a 304's revisit record holds none) whole;
 * null when there is none, or as storedFingerprint. Read by a recrawl refetch whose payload differs
 * from that answer and that has no fingerprint to judge it by (recrawl-answer.ts storedFingerprintWanted):
 * read for every page before the first round, it cost ~10 ms a page of the crawl thread.
 */
export async function storedAnswerFingerprint(ctx: CrawlContext, url: string, payloadDigest: string): Promise<PageFingerprint | null> {
  const rows = ctx.db.prepare(
    `SELECT status, truncated, fetchedAt, warcFile, warcOffset, warcLength FROM Capture
     WHERE crawlId = ? AND url = ? AND payloadDigest = ? AND recordType = 'response' AND status BETWEEN 200 AND 299
       AND mime IN ('text/html', 'application/xhtml+xml')
     ORDER BY fetchedAt DESC, id DESC`,
  ).all(ctx.crawlId, url, payloadDigest) as { status: number; truncated: string | null; fetchedAt: string; warcFile: string; warcOffset: number; warcLength: number }[];
  const record = rows.find((r) => !cutByFailedFetch(r.truncated));
  return record ? storedFingerprint(ctx, { ...record, url, payloadDigest, fetchedAt: new Date(record.fetchedAt) }) : null;
}

/**
 * The fingerprint of a stored HTML capture, read back from its WARC record and computed as a visit's
 * is (coherence-stage.ts: the main text, the navigation links of the links the page gives the crawl),
 * so that a recrawl round judges a page that kept none as the later rounds do.
 * Null when the record does not hold a whole HTML page (another type, a payload over the decoding
 * cap) or cannot be read (logged): the round then judges the page by its digest.
 */
async function storedFingerprint(ctx: CrawlContext, c: StoredResponse): Promise<PageFingerprint | null> {
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
