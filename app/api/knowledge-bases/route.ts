import { z } from 'zod';
import { knowledgeBaseNameSchema } from '../../../worker/icd/schema';
import { isUniqueViolation } from '../../../worker/store/prisma';
import { HttpError, apiRoute, readJson } from '../../lib/server/handler';
import { EMPTY_KNOWLEDGE_BASE, invalidKnowledgeBase, knowledgeBaseXmlSchema } from '../../lib/server/knowledge-base-input';
import { versionedJson } from '../../lib/server/versioned-save';

export const dynamic = 'force-dynamic';

/** GET /api/knowledge-bases [view] → names and update times. */
export const GET = apiRoute('view', async ({ prisma }) => prisma.knowledgeBase.findMany({ select: { id: true, name: true, updatedAt: true }, orderBy: { name: 'asc' } }));

const newKnowledgeBase = z
  .object({ name: knowledgeBaseNameSchema, xml: knowledgeBaseXmlSchema.optional(), copyOf: knowledgeBaseNameSchema.optional() })
  .strict()
  .refine((b) => b.xml === undefined || b.copyOf === undefined, { message: 'Give the XML or the knowledge base to copy, not both', path: ['copyOf'] });

/**
 * POST /api/knowledge-bases [design] {name, xml? | copyOf?} → 201 {name, xml, updatedAt} and its
 * `ETag`: a new knowledge base of `xml`, of a copy of knowledge base `copyOf`, or empty. 409 when
 * the name is taken, 404 when `copyOf` is not stored, 400 with line-numbered errors when invalid.
 */
export const POST = apiRoute('design', async ({ req, prisma }) => {
  const { name, xml: given, copyOf } = await readJson(req, newKnowledgeBase);
  const takenMessage = `A knowledge base named “${name}” already exists: choose another name`;
  const taken = () => new HttpError(409, takenMessage, [{ path: ['name'], message: takenMessage }]);
  if (await prisma.knowledgeBase.findUnique({ where: { name }, select: { id: true } })) throw taken();
  let xml = given ?? EMPTY_KNOWLEDGE_BASE;
  if (copyOf !== undefined) {
    const source = await prisma.knowledgeBase.findUnique({ where: { name: copyOf }, select: { xml: true } });
    if (!source) throw new HttpError(404, `No knowledge base “${copyOf}” to copy`);
    xml = source.xml;
  }
  const invalid = invalidKnowledgeBase(xml);
  if (invalid) return invalid;
  // Checked first for a clear answer; the unique index decides a race between two creations.
  const row = await prisma.knowledgeBase.create({ data: { name, xml } }).catch((err: unknown) => {
    throw isUniqueViolation(err) ? taken() : err;
  });
  return versionedJson({ name: row.name, xml: row.xml, updatedAt: row.updatedAt }, row.updatedAt, 201);
});
