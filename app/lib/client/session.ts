'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { can, type Permission } from '../../../worker/auth/roles';
import { api, ApiError, setCsrfToken } from './api';

export interface SessionUser {
  id: number;
  username: string;
  role: string;
}

interface SessionBody {
  user: SessionUser;
  csrfToken: string;
}

export const sessionKey = ['session'] as const;

/**
 * The signed-in user, from `GET /api/auth/me`; `null` when nobody is signed in. Pages that need a
 * user redirect to the login page through the API helper's 401 handling.
 */
export function useSession() {
  return useQuery({
    queryKey: sessionKey,
    queryFn: async (): Promise<SessionUser | null> => {
      try {
        const body = await api<SessionBody>('GET', '/api/auth/me', undefined, { noRedirect: true });
        setCsrfToken(body.csrfToken);
        return body.user;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
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
      setCsrfToken(body.csrfToken);
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
      setCsrfToken('');
      client.clear();
      window.location.assign('/login');
    },
  });
}
