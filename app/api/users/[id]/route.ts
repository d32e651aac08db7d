import { z } from 'zod';
import { ROLES } from '../../../../worker/auth/roles';
import { passwordSchema } from '../../../lib/server/account-schemas';
import { HttpError, apiRoute, idParam, readJson } from '../../../lib/server/handler';
import { services } from '../../../lib/server/services';

export const dynamic = 'force-dynamic';

const change = z.object({ role: z.enum(ROLES).optional(), password: passwordSchema.optional() }).refine((c) => c.role || c.password, { message: 'Nothing to change' });

/**
 * PATCH /api/users/:id [manage-users] {role?, password?} → the user. A new role applies to the
 * user's next request; a new password ends all their sessions. The last admin keeps the role
 * (409), so the cockpit always has someone who can manage users.
 */
export const PATCH = apiRoute<{ id: string }>('manage-users', async ({ req, params, prisma }) => {
  const id = idParam(params.id);
  const input = await readJson(req, change);
  const user = await prisma.user.findUnique({ where: { id }, select: { role: true } });
  if (!user) throw new HttpError(404, 'not found');
  if (input.role && input.role !== 'admin' && user.role === 'admin' && (await prisma.user.count({ where: { role: 'admin' } })) <= 1) {
    throw new HttpError(409, 'The last admin keeps the role: make another user admin first');
  }
  if (input.role) await prisma.user.update({ where: { id }, data: { role: input.role } });
  if (input.password) await services().sessions.resetPassword(id, input.password);
  return prisma.user.findUnique({ where: { id }, select: { id: true, username: true, role: true, createdAt: true } });
});
