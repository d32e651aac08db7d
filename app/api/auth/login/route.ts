import { z } from 'zod';
import { SESSION_COOKIE } from '../../../../worker/auth/sessions';
import { sameOrigin } from '../../../../worker/auth/origin';
import { errorResponse, jsonError, readJson } from '../../../lib/server/handler';
import { services } from '../../../lib/server/services';

export const dynamic = 'force-dynamic';

const credentials = z.object({ username: z.string().trim().min(1, 'Enter your user name'), password: z.string().min(1, 'Enter your password') });

/** POST /api/auth/login → session cookie + CSRF token. */
export async function POST(req: Request): Promise<Response> {
  try {
    // Login CSRF: a foreign page must not sign the browser in to an account of its choosing.
    const origin = req.headers.get('origin');
    if (origin && !sameOrigin(origin, req.headers.get('x-forwarded-host') ?? req.headers.get('host'))) return jsonError(403, { error: 'csrf' });
    const { username, password } = await readJson(req, credentials);
    const { sessions, env } = services();
    const session = await sessions.login(username, password);
    if (!session) return jsonError(401, { error: 'Wrong user name or password' });
    const cookie = [
      `${SESSION_COOKIE}=${session.token}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
      `Max-Age=${Math.round(env.TIDEMARK_SESSION_HOURS * 3600)}`,
      ...(env.TIDEMARK_SECURE_COOKIES ? ['Secure'] : []),
    ].join('; ');
    const { id, role } = session.user;
    return Response.json({ user: { id, username: session.user.username, role }, csrfToken: session.user.csrfToken }, { headers: { 'set-cookie': cookie, 'cache-control': 'no-store' } });
  } catch (err) {
    return errorResponse(err);
  }
}
