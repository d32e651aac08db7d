import { parseIcd } from '../../../../../worker/icd/schema';
import { runReferenceCrawl } from '../../../../../worker/focus/reference-crawl';
import { HttpError, apiRoute, idParam } from '../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/**
 * POST /api/icds/:id/reference-crawl [design] → `{pages:[{url,title,words}], terms:[{term,weight}],
 * topicTerms, failures:[{url,reason}]}`: fetches the saved ICD's seeds and up to
 * focus.referenceCrawl.maxPages pages within its depth (politely, nothing archived) and proposes
 * the topic vector's most representative terms for review. Nothing is saved: the archivist edits
 * the terms and saves them as focus.topicTerms.
 */
export const POST = apiRoute<{ id: string }>('design', async ({ params, prisma }) => {
  const row = await prisma.icd.findUnique({ where: { id: idParam(params.id) }, select: { definition: true } });
  if (!row) throw new HttpError(404, 'not found');
  const result = await runReferenceCrawl(parseIcd(JSON.parse(row.definition)));
  if (result.documents.length === 0) {
    const why = result.failures.slice(0, 3).map((f) => `${f.url}: ${f.reason}`).join('; ');
    throw new HttpError(422, `The reference crawl found no HTML page to learn from${why ? ` (${why})` : ''}`);
  }
  return { pages: result.documents, terms: result.topTerms, topicTerms: result.topicTerms, failures: result.failures };
});
