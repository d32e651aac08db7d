import { OtherUserError } from '../lib/client/api';

/**
 * Where "sign in" leads once a session has ended: the login form in a new tab, which stays put
 * after signing in (LoginForm's `again`), so the page with the edits is neither left nor reloaded.
 */
const SIGN_IN_AGAIN_HREF = '/login?again=1';

/**
 * Says the session has ended, or that someone else signed in over this page (`error` an
 * OtherUserError), and how to go on without losing what was typed on this page.
 */
export function SessionEnded({ error, className = '', testId = 'session-ended' }: { error?: unknown; className?: string; testId?: string }) {
  const other = error instanceof OtherUserError ? error : null;
  return (
    <p role="alert" data-testid={testId} className={`rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 ${className}`}>
      {other ? (
        <>
          You are now signed in as <strong>{other.signedIn}</strong>, not as <strong>{other.pageUser}</strong> who opened this page: nothing was saved as{' '}
          {other.signedIn}.{' '}
          <a href={SIGN_IN_AGAIN_HREF} target="_blank" rel="noopener" className="link font-medium">
            Sign in again as {other.pageUser} (opens a new tab)
          </a>{' '}
          to save these edits, then come back here and try again; or reload the page to discard them.
        </>
      ) : (
        <>
          Your session has ended: sign in again.{' '}
          <a href={SIGN_IN_AGAIN_HREF} target="_blank" rel="noopener" className="link font-medium">
            Sign in (opens a new tab)
          </a>
          , then come back here and try again; nothing you typed on this page is lost.
        </>
      )}
    </p>
  );
}
