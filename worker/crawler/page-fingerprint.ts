import { cutByFailedFetch, type HttpExchange } from '../capture';
import { decodeText } from '../extract';
import { extractMainContent } from '../text';
import { fingerprintCapture, type PageFingerprint } from '../coherence';

/**
 * The fingerprint of an HTML capture, computed the same way at visit and at revisit (and from a
 * stored capture's record, stored-fingerprint.ts): main text of the decoded body and the navigation
 * out-links the extractor found.
 */
export function fingerprintHtml(ex: Pick<HttpExchange, 'status' | 'headers' | 'payloadDigest' | 'date' | 'truncated'>, decodedBody: Buffer, links: readonly { url: string; kind: string }[]): { fingerprint: PageFingerprint; text: string } {
  const html = decodeText(decodedBody, ex.headers['content-type']);
  const text = extractMainContent(html).text;
  const fingerprint = fingerprintCapture({
    status: ex.status,
    headers: ex.headers,
    payloadDigest: ex.payloadDigest,
    mainText: text,
    outLinks: links.filter((l) => l.kind === 'navigation').map((l) => l.url),
    fetchedAt: ex.date.getTime(),
    cut: cutByFailedFetch(ex.truncated),
  });
  return { fingerprint, text };
}
