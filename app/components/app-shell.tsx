'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, type ReactNode } from 'react';
import { redirectToLogin } from '../lib/client/api';
import { can } from '../../worker/auth/roles';
import { useUnsavedEdits } from '../lib/client/leave-guard';
import { sessionEnded, useLogout, useSession } from '../lib/client/session';
import { SessionEnded } from './session-ended';

const NAV = [
  { href: '/crawls', label: 'Crawls' },
  { href: '/icds', label: 'Crawl definitions' },
  { href: '/exports', label: 'Exports' },
  { href: '/knowledge-base', label: 'Knowledge base' },
];

/** The cockpit's frame: navigation, the signed-in user with role, and logout. */
export function AppShell({ children }: { children: ReactNode }) {
  const pathname = usePathname() ?? '/';
  const session = useSession();
  const logout = useLogout();
  const unsaved = useUnsavedEdits();
  const onLogin = pathname === '/login';
  const signedOut = session.isSuccess && session.data === null;
  const ended = sessionEnded(session.error);
  const { refetch } = session;

  // Not over unsaved edits: an ended session leaves the page in place, saying to sign in again.
  // Once the edits are saved or given up, the session is checked again: the user may have signed
  // in again meanwhile; if not, the tab goes to the login page.
  useEffect(() => {
    if (onLogin || unsaved) return;
    if (signedOut) redirectToLogin();
    else if (ended) void refetch();
  }, [signedOut, ended, onLogin, unsaved, refetch]);

  if (onLogin) return <main id="main" tabIndex={-1}>{children}</main>;
  const user = session.data;
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-2">
          <Link href="/crawls" className="text-lg font-bold tracking-tight text-sky-900">
            Tidemark
          </Link>
          <nav aria-label="Main">
            <ul className="flex flex-wrap gap-1">
              {[...NAV, ...(session.data && can(session.data.role, 'manage-users') ? [{ href: '/users', label: 'Users' }] : [])].map((item) => {
                const current = pathname === item.href || pathname.startsWith(`${item.href}/`);
                return (
                  <li key={item.href}>
                    <Link
                      href={item.href}
                      aria-current={current ? 'page' : undefined}
                      className={`rounded px-2 py-1 text-sm ${current ? 'bg-sky-100 font-semibold text-sky-900' : 'text-slate-700 hover:bg-slate-100'}`}
                    >
                      {item.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
          <div className="ml-auto flex items-center gap-3 text-sm">
            {user ? (
              <>
                <span data-testid="current-user">
                  Signed in as <strong>{user.username}</strong> <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs uppercase tracking-wide text-slate-700">{user.role}</span>
                </span>
                <Link href="/account" className="link" aria-current={pathname === '/account' ? 'page' : undefined}>
                  Account
                </Link>
                <button type="button" className="btn" onClick={() => logout.mutate()} disabled={logout.isPending}>
                  Sign out
                </button>
              </>
            ) : session.isError ? (
              <span role="alert" className="text-red-700">Cannot reach the cockpit: {session.error.message}</span>
            ) : null}
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 outline-none">
        {ended && user && <SessionEnded error={session.error} className="mb-4" testId="session-ended-banner" />}
        {user ? children : session.isPending ? <p className="text-slate-600">Loading…</p> : null}
      </main>
    </div>
  );
}
