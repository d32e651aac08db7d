import { z } from 'zod';
import { HttpError, apiRoute, idParam, readJson } from '../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/** POST /api/adapted-rules/:id [design] {status: approved|rejected} → the rule. */
export const POST = apiRoute<{ id: string }>('design', async ({ req, params, prisma }) => {
  const id = idParam(params.id);
  const { status } = await readJson(req, z.object({ status: z.enum(['approved', 'rejected']) }));
  if (!(await prisma.adaptedRule.findUnique({ where: { id }, select: { id: true } }))) throw new HttpError(404, 'not found');
  return prisma.adaptedRule.update({ where: { id }, data: { status } });
});
