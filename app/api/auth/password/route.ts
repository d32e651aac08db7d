import { z } from 'zod';
import { SESSION_COOKIE, readCookie } from '../../../../worker/auth/sessions';
import { passwordSchema } from '../../../lib/server/account-schemas';
import { apiRoute, jsonError, readJson } from '../../../lib/server/handler';
import { services } from '../../../lib/server/services';

export const dynamic = 'force-dynamic';

const change = z.object({ currentPassword: z.string().min(1, 'Your current password'), newPassword: passwordSchema });

/**
 * POST /api/auth/password [view: any signed-in user] {currentPassword, newPassword} → 204. The
 * user's other sessions end; this one goes on. A wrong current password is a 400 on that field.
 */
export const POST = apiRoute('view', async ({ req, user }) => {
  const input = await readJson(req, change);
  const token = readCookie(req.headers.get('cookie'), SESSION_COOKIE);
  if (!(await services().sessions.changeOwnPassword(user.id, input.currentPassword, input.newPassword, token))) {
    return jsonError(400, { error: 'invalid', issues: [{ path: ['currentPassword'], message: 'Not your current password' }] });
  }
  return undefined;
});
