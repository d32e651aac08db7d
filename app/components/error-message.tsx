import { notFound } from 'next/navigation';
import { ApiError } from '../lib/client/api';
import { SessionEnded } from './session-ended';

/**
 * Shows an error; a 403 gets a plain "your role may not" message rather than a failure, and a 401
 * (or another user signed in over the page) a way to sign in again that keeps the page.
 */
export function ErrorMessage({ error, className = '' }: { error: unknown; className?: string }) {
  if (!error) return null;
  if (error instanceof ApiError && error.status === 401) return <SessionEnded error={error} className={className} />;
  const forbidden = error instanceof ApiError && error.status === 403;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <p role="alert" data-testid={forbidden ? 'forbidden' : 'error'} className={`rounded border px-3 py-2 text-sm ${forbidden ? 'border-amber-300 bg-amber-50 text-amber-900' : 'border-red-300 bg-red-50 text-red-800'} ${className}`}>
      {forbidden ? `Not allowed: ${message}` : message}
    </p>
  );
}

/** The error of the thing a page is about: a 404 (a deleted or never existing crawl) is the 404 page. */
export function PageError({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 404) notFound();
  return <ErrorMessage error={error} />;
}
