import { z } from 'zod';
import { parseIcd } from '../../../../../worker/icd/schema';
import { reviewTermsOf } from '../../../../../worker/focus/review-terms';
import { HttpError, apiRoute, idParam, readJson } from '../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

const typedTermSchema = z.object({ text: z.string().trim().min(1, 'a term to add').max(200, 'at most 200 characters') });

/**
 * POST /api/icds/:id/topic-terms [design] `{text}` → `{terms}`: the topic terms a typed term stands
 * for in this ICD's crawl (its words stemmed, stop words dropped), for the term review to add.
 * 422 when nothing is left (only stop words or one-letter words).
 */
export const POST = apiRoute<{ id: string }>('design', async ({ req, params, prisma }) => {
  const { text } = await readJson(req, typedTermSchema);
  const row = await prisma.icd.findUnique({ where: { id: idParam(params.id) }, select: { definition: true } });
  if (!row) throw new HttpError(404, 'not found');
  const terms = reviewTermsOf(text, parseIcd(JSON.parse(row.definition)).focus.language);
  if (terms.length === 0) throw new HttpError(422, `“${text}” has no word the crawl scores (only stop words or one-letter words)`);
  return { terms };
});
