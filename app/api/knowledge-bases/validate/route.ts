import { z } from 'zod';
import { parseWrittenKnowledgeBase } from '../../../../worker/aah/kb-parser';
import { apiRoute, readJson } from '../../../lib/server/handler';
import { oversizedKnowledgeBase } from '../../../lib/server/knowledge-base-input';

export const dynamic = 'force-dynamic';

/**
 * POST /api/knowledge-bases/validate [design] {xml} → {errors:[{line,column,message}]} (empty when
 * valid). XML longer than Save takes (5 MB) is a 400 with Save's message, as `errors` (line 1) and
 * as an issue at `xml`: what the check calls valid, Save takes.
 */
export const POST = apiRoute('design', async ({ req }) => {
  // Any length the request body allows: the size is judged below, with Save's message.
  const { xml } = await readJson(req, z.object({ xml: z.string() }));
  const oversized = oversizedKnowledgeBase(xml);
  if (oversized) return oversized;
  const parsed = parseWrittenKnowledgeBase(xml);
  return { errors: parsed.ok ? [] : parsed.errors };
});
