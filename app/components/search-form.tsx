'use client';
import { useState, type FormEvent, type ReactNode } from 'react';

/**
 * A table's "URL contains" filter: typed freely, applied on Enter or Filter. `children` are
 * further controls shown before it (they apply themselves).
 */
export function UrlSearchForm({ id, label, onSearch, children }: { id: string; label: string; onSearch: (query: string) => void; children?: ReactNode }) {
  const [draft, setDraft] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft.trim());
  };
  return (
    <form onSubmit={submit} role="search" aria-label={label} className="ml-auto flex flex-wrap items-end gap-2">
      {children}
      <label htmlFor={id} className="text-sm">URL contains</label>
      <input id={id} className="input w-64" value={draft} onChange={(e) => setDraft(e.target.value)} />
      <button type="submit" className="btn">Filter</button>
    </form>
  );
}
