import { z } from 'zod';
import { parseKnowledgeBase } from '../../../../worker/aah/kb-parser';
import { apiRoute, readJson } from '../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/** POST /api/knowledge-bases/validate [design] {xml} → {errors:[{line,column,message}]} (empty when valid). */
export const POST = apiRoute('design', async ({ req }) => {
  const { xml } = await readJson(req, z.object({ xml: z.string().max(10_000_000) }));
  const parsed = parseKnowledgeBase(xml);
  return { errors: parsed.ok ? [] : parsed.errors };
});
