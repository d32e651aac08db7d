import { z } from 'zod';
import { refusedFields } from '../../../../../worker/icd/stored-icd-repair';
import { correctRefusedSettings, icdRepairRefusal, icdReplacements } from '../../../../../worker/process/stored-icd-replacement';
import { HttpError, apiRoute, idParam, readJson } from '../../../../lib/server/handler';
import { getCrawl, settledRequest } from '../../../../lib/server/crawl-views';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/stored-icd [view] → `{refused: [{field, value, problems}], correctable, replacements}`:
 * the fields of the crawl's ICD copy this version refuses (an earlier version created the crawl with
 * them), each with its stored value and why; `correctable` null when they may be corrected now, else
 * why not; `replacements` the corrections made before, oldest first.
 */
export const GET = apiRoute<{ id: string }>('view', async ({ params, db }) => {
  const id = idParam(params.id);
  const crawl = db.prepare('SELECT status, desired, error, definition FROM Crawl WHERE id = ?').get(id) as { status: string; desired: string; error: string | null; definition: string } | undefined;
  if (!crawl) throw new HttpError(404, 'not found');
  const refused = refusedFields(JSON.parse(crawl.definition));
  return { refused, correctable: refused.length ? icdRepairRefusal(crawl.status, crawl.desired, crawl.error) : null, replacements: icdReplacements(db, id) };
});

const bodySchema = z.object({ corrections: z.record(z.string(), z.unknown()), resume: z.boolean().default(false) }).strict();

/**
 * POST /api/crawls/:id/stored-icd [run] `{corrections: {<field>: value}, resume?}` → `{replaced, crawl}`:
 * replaces the refused fields of the crawl's ICD copy (and only those) with the values given,
 * validated by today's rules, records the replacement, and with `resume` resumes the crawl. 400 with
 * the issues at their fields when the corrected ICD is still refused; 409 when the crawl is not paused
 * (or failed for these settings), when a field given is not a refused one, or nothing is refused.
 */
export const POST = apiRoute<{ id: string }>('run', async ({ req, params, prisma, db, user }) => {
  const id = idParam(params.id);
  const { corrections, resume } = await readJson(req, bodySchema);
  const outcome = correctRefusedSettings(db, id, corrections, { userId: user.id, resume });
  if (outcome !== 'missing' && 'invalid' in outcome) {
    const issues = outcome.invalid.map((i) => ({ path: i.path.map((p) => (typeof p === 'number' ? p : String(p))), message: i.message }));
    throw new HttpError(400, `Still refused: ${issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, issues);
  }
  const replaced = settledRequest(outcome);
  return { replaced, crawl: await getCrawl(prisma, id) };
});
