'use client';
import { useRouter } from 'next/navigation';
import { useStartCrawl } from './queries';

/**
 * Starts a crawl of an ICD and opens the crawl's page. `busy` from the click until the page has
 * moved on: the request is pending only until the server answers, and router.push then takes a
 * moment to load the crawl's page, during which the button was enabled again and the second click
 * of a double-click (150–250 ms apart) started a second crawl. After a success the button stays
 * disabled until the navigation unmounts it. `icdId`: the ICD being started, while busy.
 */
export function useStartCrawlAndOpen() {
  const start = useStartCrawl();
  const router = useRouter();
  const busy = start.isPending || start.isSuccess;
  return {
    busy,
    icdId: busy ? start.variables : undefined,
    error: start.error,
    start: (icdId: number, onError?: (error: Error) => void) => {
      if (busy) return;
      start.mutate(icdId, { onSuccess: (crawl) => router.push(`/crawls/${crawl.id}`), onError });
    },
  };
}
