import { z } from 'zod';
import { ROLES } from '../../../../worker/auth/roles';
import { changeRole } from '../../../../worker/auth/role-change';
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
export const PATCH = apiRoute<{ id: string }>('manage-users', async ({ req, params, prisma, db }) => {
  const id = idParam(params.id);
  const input = await readJson(req, change);
  if (!(await prisma.user.findUnique({ where: { id }, select: { id: true } }))) throw new HttpError(404, 'not found');
  // Checked and changed at once (changeRole): two admins demoted at the same moment left none.
  const changed = input.role ? changeRole(db, id, input.role) : 'changed';
  if (changed === 'missing') throw new HttpError(404, 'not found');
  if (changed === 'last-admin') throw new HttpError(409, 'The last admin keeps the role: make another user admin first');
  if (input.password) await services().sessions.resetPassword(id, input.password);
  return prisma.user.findUnique({ where: { id }, select: { id: true, username: true, role: true, createdAt: true } });
});
