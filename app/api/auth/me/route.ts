import { jsonError, sessionUser } from '../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/** GET /api/auth/me → the signed-in user and the session's CSRF token, or 401. */
export async function GET(req: Request): Promise<Response> {
  const user = sessionUser(req);
  if (!user) return jsonError(401, { error: 'unauthenticated' });
  return Response.json({ user: { id: user.id, username: user.username, role: user.role }, csrfToken: user.csrfToken }, { headers: { 'cache-control': 'no-store' } });
}
