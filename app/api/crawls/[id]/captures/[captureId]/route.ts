import { readStoredRecord } from '../../../../../../worker/warc/read-record';
import { HttpError, apiRoute, idParam } from '../../../../../lib/server/handler';
import { services } from '../../../../../lib/server/services';
import { payloadFileName, textPreview } from '../../../../../lib/server/record-view';
import { attachmentDisposition } from '../../../../../lib/server/content-disposition';
import { crawlWarcDir } from '../../../../../../worker/store/data-layout';
import { existingCrawlId } from '../../../../../lib/server/crawl-views';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/captures/:captureId [view] → the capture's stored record, read back from its
 * WARC file: `{capture, warcHeaders: [[name, value]…], httpHead, payloadBytes, payloadCut, preview,
 * previewTruncated}` (`payloadCut`: the payload decodes to more than 64 MB and is cut there) (`preview`: the start of a textual payload decoded in its charset, null for other types).
 * With `?payload=1`: the payload itself, as a download.
 */
export const GET = apiRoute<{ id: string; captureId: string }>('view', async ({ req, params, prisma }) => {
  // The crawl first: a deleted crawl's captures stay until its background deletion reaches them.
  const crawlId = await existingCrawlId(prisma, params.id);
  const capture = await prisma.capture.findFirst({ where: { id: idParam(params.captureId), crawlId } });
  if (!capture) throw new HttpError(404, 'not found');
  const warcDir = crawlWarcDir(services().env.dataDir, crawlId);
  const record = await readStoredRecord(warcDir, capture.warcFile, capture.warcOffset, capture.warcLength).catch((err: Error) => {
    throw new HttpError(404, `The record cannot be read from ${capture.warcFile}: ${err.message}`);
  });
  if (new URL(req.url).searchParams.get('payload') === '1') {
    return new Response(new Uint8Array(record.payload), {
      headers: {
        'content-type': 'application/octet-stream',
        'content-disposition': attachmentDisposition(payloadFileName(capture.url)),
        'x-content-type-options': 'nosniff',
        // A payload that decodes past the server's cap comes as its decoded first part.
        ...(record.payloadCut ? { 'x-payload-cut': `decoded to ${record.payload.byteLength} bytes of more` } : {}),
      },
    });
  }
  const { preview, truncated } = textPreview(record.contentType ?? capture.mime, record.payload);
  return {
    capture: { id: capture.id, url: capture.url, status: capture.status, mime: capture.mime, recordType: capture.recordType, warcFile: capture.warcFile, warcOffset: capture.warcOffset, fetchedAt: capture.fetchedAt },
    warcHeaders: record.warcHeaders,
    httpHead: record.httpHead,
    payloadBytes: record.payload.byteLength,
    payloadCut: record.payloadCut,
    preview,
    previewTruncated: truncated,
  };
});
