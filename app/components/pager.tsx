'use client';
import { useState, type FormEvent } from 'react';

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
      <button type="button" className="btn" onClick={() => onPage(1)} disabled={page <= 1}>First</button>
      <button type="button" className="btn" onClick={() => onPage(page - 1)} disabled={page <= 1}>Previous</button>
      <form onSubmit={go} className="flex items-center gap-1">
        <label className="flex items-center gap-1">
          Page
          <input type="text" inputMode="numeric" className="input w-20 py-0.5 text-right tabular-nums" aria-label={`${label}: page number`}
            value={typed ?? String(page)} onChange={(e) => setTyped(e.target.value)} onBlur={() => go()} />
        </label>
        <span>of {pages} · {total} in all</span>
      </form>
      <button type="button" className="btn" onClick={() => onPage(page + 1)} disabled={page >= pages}>Next</button>
      <button type="button" className="btn" onClick={() => onPage(pages)} disabled={page >= pages}>Last</button>
    </nav>
  );
}
