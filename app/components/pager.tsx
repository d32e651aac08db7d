'use client';
import { useState, type FormEvent, type ReactNode } from 'react';

/** The page a typed page number asks for, within 1…pages; null when it is no whole number. */
export function typedPage(text: string, pages: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  return Math.min(pages, Math.max(1, Number(text)));
}

/**
 * First / previous / a page number to type / next / last for a paged list, with where we are:
 * a crawl of 20,000 URLs has a thousand pages of captures, too many to step through one by one.
 */
export function Pager({ page, pageSize, total, onPage, label }: { page: number; pageSize: number; total: number; onPage: (page: number) => void; label: string }) {
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  // What is typed in the page field, until it is submitted (Enter) or left.
  const [typed, setTyped] = useState<string | null>(null);
  const go = (event?: FormEvent) => {
    event?.preventDefault();
    const target = typed === null ? null : typedPage(typed, pages);
    setTyped(null);
    if (target !== null && target !== page) onPage(target);
  };
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-3 text-sm">
      <PagerButton onPress={() => onPage(1)} off={page <= 1}>First</PagerButton>
      <PagerButton onPress={() => onPage(page - 1)} off={page <= 1}>Previous</PagerButton>
      <form onSubmit={go} className="flex items-center gap-1">
        <label className="flex items-center gap-1">
          Page
          <input type="text" inputMode="numeric" className="input w-20 py-0.5 text-right tabular-nums" aria-label={`${label}: page number`}
            value={typed ?? String(page)} onChange={(e) => setTyped(e.target.value)} onBlur={() => go()} />
        </label>
        <span>of {pages} · {total} in all</span>
      </form>
      <PagerButton onPress={() => onPage(page + 1)} off={page >= pages}>Next</PagerButton>
      <PagerButton onPress={() => onPage(pages)} off={page >= pages}>Last</PagerButton>
    </nav>
  );
}

/**
 * A pager button that goes nowhere at its end of the list (`off`): marked aria-disabled rather than
 * disabled, so it keeps the focus. A disabled button drops it: Last or Next pressed from the
 * keyboard threw the focus to the top of the page the moment the last page showed.
 */
function PagerButton({ onPress, off, children }: { onPress(): void; off: boolean; children: ReactNode }) {
  return (
    <button type="button" className="btn aria-disabled:cursor-not-allowed aria-disabled:opacity-50" aria-disabled={off || undefined} onClick={() => !off && onPress()}>
      {children}
    </button>
  );
}
