import { z } from 'zod';
import { parseKnowledgeBase } from '../../../../worker/aah/kb-parser';
import { HttpError, apiRoute, readJson } from '../../../lib/server/handler';

export const dynamic = 'force-dynamic';
type Params = { name: string };

const KB_MAX_CHARS = 5_000_000;

/** GET /api/knowledge-bases/:name [view] → {name, xml}. */
export const GET = apiRoute<Params>('view', async ({ params, prisma }) => {
  const row = await prisma.knowledgeBase.findUnique({ where: { name: params.name } });
  if (!row) throw new HttpError(404, 'not found');
  return { name: row.name, xml: row.xml, updatedAt: row.updatedAt };
});

/** PUT /api/knowledge-bases/:name [design] {xml} → saved; 400 with line-numbered errors when invalid. */
export const PUT = apiRoute<Params>('design', async ({ req, params, prisma }) => {
  const { xml } = await readJson(req, z.object({ xml: z.string().max(KB_MAX_CHARS, 'The knowledge base is larger than 5 MB') }));
  const name = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'Name: letters, digits, . _ - (at most 64)').parse(params.name);
  const parsed = parseKnowledgeBase(xml);
  if (!parsed.ok) return Response.json({ error: 'invalid', errors: parsed.errors, issues: parsed.errors.map((e) => ({ path: ['xml'], message: `line ${e.line}: ${e.message}` })) }, { status: 400 });
  const row = await prisma.knowledgeBase.upsert({ where: { name }, create: { name, xml }, update: { xml } });
  return { name: row.name, xml: row.xml, updatedAt: row.updatedAt };
});
