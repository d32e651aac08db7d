'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { can, type Permission } from '../../../worker/auth/roles';
import { adoptSession, api, ApiError, forgetSession, leaveAfterSignOut, type SessionBody, type SessionUser } from './api';
import { hasUnsavedEdits } from './unsaved-edits';

export const sessionKey = ['session'] as const;

/**
 * The signed-in user, from `GET /api/auth/me`; `null` when nobody is signed in, and the app shell
 * then sends the tab to the login page. While a form holds unsaved edits a lost session is an
 * error instead (`sessionEnded`): the query keeps the user it had, so the page, its form and the
 * user's permissions stay, and the shell says to sign in again. Coming back to the tab checks the
 * session again (at once when it had ended), which also fetches the new CSRF token. Another user
 * signed in meanwhile is an error too over unsaved edits (an OtherUserError: the page stays its
 * user's); with nothing unsaved the page goes on as the new user.
 */
export function useSession() {
  return useQuery({
    queryKey: sessionKey,
    queryFn: async (): Promise<SessionUser | null> => {
      try {
        const body = await api<SessionBody>('GET', '/api/auth/me', undefined, { noRedirect: true });
        adoptSession(body, hasUnsavedEdits());
        return body.user;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401 && !hasUnsavedEdits()) return null;
        throw error;
      }
    },
    staleTime: 60_000,
    refetchOnWindowFocus: (query) => (sessionEnded(query.state.error) ? 'always' : true),
  });
}

/** The error of the session query says the session has ended, or is another user's (kept as an error over unsaved edits). */
export function sessionEnded(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** True when the signed-in user's role grants `permission`. */
export function useCan(permission: Permission): boolean {
  const { data } = useSession();
  return !!data && can(data.role, permission);
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (credentials: { username: string; password: string }) =>
      api<SessionBody>('POST', '/api/auth/login', credentials, { noRedirect: true }),
    onSuccess: (body) => {
      adoptSession(body, false); // signing in on this page: the page is now theirs
      client.clear();
      client.setQueryData(sessionKey, body.user);
    },
  });
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>('POST', '/api/auth/logout', undefined, { noRedirect: true }),
    onSettled: () => {
      forgetSession();
      // Before the cache is cleared: its reads, refused, would start a navigation of their own.
      leaveAfterSignOut();
      client.clear();
    },
  });
}
