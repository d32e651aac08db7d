import { z } from 'zod';
import { parseKnowledgeBase } from '../../../../worker/aah/kb-parser';
import { KB_MAX_CHARS } from '../../../../worker/aah/kb-xml-reader';
import { knowledgeBaseNameSchema } from '../../../../worker/icd/schema';
import { HttpError, apiRoute, readJson } from '../../../lib/server/handler';
import { conflictResponse, saveKnowledgeBase, versionedJson } from '../../../lib/server/versioned-save';
import { parseIfMatch } from '../../../lib/version-tag';

export const dynamic = 'force-dynamic';
type Params = { name: string };

/** GET /api/knowledge-bases/:name [view] → {name, xml, updatedAt}, its version in `ETag`. */
export const GET = apiRoute<Params>('view', async ({ params, prisma }) => {
  const row = await prisma.knowledgeBase.findUnique({ where: { name: params.name } });
  if (!row) throw new HttpError(404, 'not found');
  return versionedJson({ name: row.name, xml: row.xml, updatedAt: row.updatedAt }, row.updatedAt);
});

/**
 * PUT /api/knowledge-bases/:name [design] {xml} → saved, with the new `ETag`; 400 with
 * line-numbered errors when invalid. With `If-Match`, 412 and nothing saved unless that is still
 * the stored version (a name not stored has none); without, a new name is created.
 */
export const PUT = apiRoute<Params>('design', async ({ req, params, prisma }) => {
  const { xml } = await readJson(req, z.object({ xml: z.string().max(KB_MAX_CHARS, 'The knowledge base is larger than 5 MB') }));
  const name = knowledgeBaseNameSchema.parse(params.name);
  const parsed = parseKnowledgeBase(xml);
  if (!parsed.ok) return Response.json({ error: 'invalid', errors: parsed.errors, issues: parsed.errors.map((e) => ({ path: ['xml'], message: `line ${e.line}: ${e.message}` })) }, { status: 400 });
  const ifMatch = parseIfMatch(req.headers.get('if-match'));
  const saved = await saveKnowledgeBase(prisma, name, xml, ifMatch);
  if (saved.kind === 'missing') throw new HttpError(412, `There is no knowledge base “${name}” for If-Match to match: nothing was saved`);
  if (saved.kind === 'conflict') return conflictResponse('knowledge base', saved.current);
  return versionedJson({ name, xml, updatedAt: saved.version }, saved.version);
});
