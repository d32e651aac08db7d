import { parseIcd } from '../../../worker/icd/schema';
import type { PrismaClient } from '../../../worker/store/prisma';
import { HttpError } from './handler';

/**
 * The ICD's AAH names a knowledge base the cockpit does not store: a 400 that names it and the
 * field, also as an issue at that field, as the form shows them.
 */
export function missingKnowledgeBase(name: string): HttpError {
  const message = `No knowledge base “${name}” is stored, and the crawl definition's aah.knowledgeBase names it: save a knowledge base of that name, choose another one, or turn the Application-Aware Helper off`;
  return new HttpError(400, message, [{ path: ['aah', 'knowledgeBase'], message }]);
}

/**
 * Creates a crawl of a copy of the stored ICD `icdId`, wanting to run, and returns its id. With
 * the ICD's AAH on, the crawl keeps a copy of the knowledge base it names too, as it keeps one of
 * the ICD: editing either later changes new crawls, not this one. A name no knowledge base has is
 * refused (missingKnowledgeBase), and nothing is created.
 */
export async function createCrawl(prisma: PrismaClient, icdId: number, ownerId: number): Promise<number> {
  const icd = await prisma.icd.findUnique({ where: { id: icdId } });
  if (!icd) throw new HttpError(404, `No ICD ${icdId}`);
  // Re-validate: an ICD stored before a schema change must not reach the worker half-valid.
  const definition = parseIcd(JSON.parse(icd.definition));
  let knowledgeBase: { name: string; xml: string } | null = null;
  if (definition.aah.enabled) {
    knowledgeBase = await prisma.knowledgeBase.findUnique({ where: { name: definition.aah.knowledgeBase }, select: { name: true, xml: true } });
    if (!knowledgeBase) throw missingKnowledgeBase(definition.aah.knowledgeBase);
  }
  const crawl = await prisma.crawl.create({
    data: {
      icdId, name: definition.name, definition: JSON.stringify(definition), status: 'created', desired: 'run', ownerId,
      knowledgeBaseName: knowledgeBase?.name ?? null, knowledgeBaseXml: knowledgeBase?.xml ?? null,
    },
    select: { id: true },
  });
  return crawl.id;
}
