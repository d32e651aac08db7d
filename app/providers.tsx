'use client';
import { useEffect, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from './lib/client/api';
import { installLeaveGuards } from './lib/client/unsaved-edits';

/**
 * One query client per browser tab. Auth errors are not retried: they will not heal by waiting.
 * Also installs the guards that ask before in-app navigation drops unsaved edits.
 */
export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 2_000,
            retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
            refetchOnWindowFocus: false,
          },
        },
      }),
  );
  // Here, inside the App Router, so that this effect runs before the router's (see installLeaveGuards).
  useEffect(() => installLeaveGuards(), []);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
