import { z } from 'zod';
import { knowledgeBaseNameSchema } from '../../../../worker/icd/schema';
import { deleteKnowledgeBase, renameKnowledgeBase, type KnowledgeBaseOutcome } from '../../../../worker/store/knowledge-base-names';
import { HttpError, apiRoute, readJson } from '../../../lib/server/handler';
import { invalidKnowledgeBase, knowledgeBaseXmlSchema } from '../../../lib/server/knowledge-base-input';
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
  const { xml } = await readJson(req, z.object({ xml: knowledgeBaseXmlSchema }));
  const name = knowledgeBaseNameSchema.parse(params.name);
  const invalid = invalidKnowledgeBase(xml);
  if (invalid) return invalid;
  const ifMatch = parseIfMatch(req.headers.get('if-match'));
  const saved = await saveKnowledgeBase(prisma, name, xml, ifMatch);
  if (saved.kind === 'missing') throw new HttpError(412, `There is no knowledge base “${name}” for If-Match to match: nothing was saved`);
  if (saved.kind === 'conflict') return conflictResponse('knowledge base', saved.current);
  return versionedJson({ name, xml, updatedAt: saved.version }, saved.version);
});

/** The answer of a rename or delete that came to `outcome`: its result, 404, or 409 saying why not (with an issue at the field it is about). */
function settled<T>(outcome: KnowledgeBaseOutcome<T>, name: string): T {
  if (outcome === 'missing') throw new HttpError(404, `No knowledge base “${name}”`);
  // A refusal about a field is an issue at it too, as a taken name is when creating.
  if ('refused' in outcome) throw new HttpError(409, outcome.refused, outcome.at ? [{ path: [outcome.at], message: outcome.refused }] : undefined);
  return outcome.done;
}

/**
 * PATCH /api/knowledge-bases/:name [design] {name} → {name, updatedAt, icds}: renamed, with the
 * crawl definitions (`icds` of them) and crawls that named it; 409 when the new name is taken or
 * this is `default`.
 */
export const PATCH = apiRoute<Params>('design', async ({ req, params, db }) => {
  const { name: to } = await readJson(req, z.object({ name: knowledgeBaseNameSchema }).strict());
  const renamed = settled(renameKnowledgeBase(db, params.name, to), params.name);
  return versionedJson({ name: to, updatedAt: renamed.updatedAt, icds: renamed.icds }, renamed.updatedAt);
});

/** DELETE /api/knowledge-bases/:name [delete] → 204; 409 while a crawl definition names it or a crawl that may still run copied it, and for `default`. */
export const DELETE = apiRoute<Params>('delete', async ({ params, db }) => {
  settled(deleteKnowledgeBase(db, params.name), params.name);
  return undefined;
});
