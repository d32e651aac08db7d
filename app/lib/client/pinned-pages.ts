'use client';
import { useState } from 'react';

export interface PinnedPage {
  filters: string;
  page: number;
  /** Null on the first page, which stays live. */
  upTo: number | null;
}

/**
 * The page to show after a move to `page` under `filters`: past the first, pinned to the entry that
 * was newest when the first page was left (`newestShown`, the top of the page on screen).
 */
export function movePinned(current: PinnedPage, filters: string, page: number, newestShown: number | undefined): PinnedPage {
  return { filters, page, upTo: page === 1 ? null : (under(current, filters).upTo ?? newestShown ?? null) };
}

/** The page shown under `filters`: the one chosen under them, else their live first page. */
function under(state: PinnedPage, filters: string): PinnedPage {
  return state.filters === filters ? state : { filters, page: 1, upTo: null };
}

/**
 * Paging through a newest-first list that grows at its top while a crawl runs (captures, the crawl
 * log). Past the first page the list is read up to the entry that was newest when the first page
 * was left (`upTo`), so its pages do not shift under the reader; the first page stays live. Other
 * filters start again at the first page.
 */
export function usePinnedPages(filters: string) {
  const [state, setState] = useState<PinnedPage>({ filters, page: 1, upTo: null });
  const current = under(state, filters);
  return {
    page: current.page,
    upTo: current.upTo,
    /** Goes to `page`; `newestShown` is the id at the top of the page on screen. */
    goTo: (page: number, newestShown: number | undefined) => setState(movePinned(state, filters, page, newestShown)),
  };
}
