import { SESSION_COOKIE, readCookie } from '../../../../worker/auth/sessions';
import { apiRoute } from '../../../lib/server/handler';
import { services } from '../../../lib/server/services';

export const dynamic = 'force-dynamic';

/** POST /api/auth/logout → 204, session deleted and cookie cleared. */
export const POST = apiRoute('view', async ({ req }) => {
  const { sessions, env } = services();
  sessions.logout(readCookie(req.headers.get('cookie'), SESSION_COOKIE));
  // Same attributes as at login, so the browser replaces that cookie.
  const secure = env.TIDEMARK_SECURE_COOKIES ? '; Secure' : '';
  return new Response(null, { status: 204, headers: { 'set-cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}` } });
});
