import { parseIcd } from '../../../../../worker/icd/schema';
import { runReferenceCrawl, type ReferenceCrawlResult } from '../../../../../worker/focus/reference-crawl';
import { HttpError, apiRoute, idParam } from '../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

const NDJSON = 'application/x-ndjson';

/** The answer for a finished reference crawl, or why it has nothing to propose. */
function answerOf(result: ReferenceCrawlResult) {
  if (result.documents.length === 0) {
    const why = result.failures.slice(0, 3).map((f) => `${f.url}: ${f.reason}`).join('; ');
    throw new HttpError(422, `The reference crawl found no HTML page to learn from${why ? ` (${why})` : ''}`);
  }
  return { pages: result.documents, terms: result.topTerms, topicTerms: result.topicTerms, failures: result.failures };
}

/**
 * POST /api/icds/:id/reference-crawl [design] → `{pages:[{url,title,words}], terms:[{term,weight}],
 * topicTerms, failures:[{url,reason}]}`: fetches the saved ICD's seeds and up to
 * focus.referenceCrawl.maxPages pages within its depth (politely, nothing archived) and proposes
 * the topic vector's most representative terms for review. Nothing is saved: the archivist edits
 * the terms and saves them as focus.topicTerms.
 *
 * With `Accept: application/x-ndjson` the answer streams one JSON object per line: a
 * `{"progress": {fetched, documents, total, url}}` after each URL, then `{"result": …}` (the
 * object above) or `{"error": message, "status": 422}`. Closing the request stops the crawl.
 */
export const POST = apiRoute<{ id: string }>('design', async ({ req, params, prisma }) => {
  const row = await prisma.icd.findUnique({ where: { id: idParam(params.id) }, select: { definition: true } });
  if (!row) throw new HttpError(404, 'not found');
  const icd = parseIcd(JSON.parse(row.definition));
  if (!(req.headers.get('accept') ?? '').includes(NDJSON)) return answerOf(await runReferenceCrawl(icd, { signal: req.signal }));

  const stop = new AbortController();
  req.signal.addEventListener('abort', () => stop.abort(), { once: true });
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(out) {
      const send = (line: unknown) => {
        if (!stop.signal.aborted) out.enqueue(encoder.encode(JSON.stringify(line) + '\n'));
      };
      try {
        send({ result: answerOf(await runReferenceCrawl(icd, { signal: stop.signal, onProgress: (progress) => send({ progress }) })) });
      } catch (err) {
        send({ error: (err as Error).message, status: err instanceof HttpError ? err.status : 500 });
      }
      if (!stop.signal.aborted) out.close();
    },
    cancel() {
      stop.abort();
    },
  });
  return new Response(stream, { headers: { 'content-type': NDJSON, 'cache-control': 'no-store' } });
});
