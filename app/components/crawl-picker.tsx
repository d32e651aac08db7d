'use client';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { CRAWL_CHOICES, useCrawlChoices, type CrawlRow } from '../lib/client/queries';
import { pickerMatchWords } from '../lib/client/crawl-list-view';

/** How long typing pauses before the search is sent (a request a keystroke would be wasted). */
const SEARCH_DELAY_MS = 250;

/**
 * A crawl picker (exports, the AAH tester): a search by name or #id, run on the server as the
 * crawls list's, so any crawl can be found among thousands, and a select of the newest
 * CRAWL_CHOICES it matches. From the keyboard: type, then Enter takes the first match (the
 * newest), Down arrow goes to the list; the count of matches is announced as it changes.
 * `onLoaded` hands the listed crawls to the page (the exports page reads the chosen one's status).
 */
export function CrawlPicker({ id, value, onChange, optionLabel, required, className, onLoaded }: {
  id: string;
  value: number | null;
  onChange: (id: number | null) => void;
  optionLabel: (c: CrawlRow) => string;
  required?: boolean;
  className?: string;
  onLoaded?: (crawls: CrawlRow[], error: unknown) => void;
}) {
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(draft.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft]);
  const choices = useCrawlChoices(value, search);
  const items = choices.data?.items;
  useEffect(() => onLoaded?.(items ?? [], choices.error), [items, choices.error, onLoaded]);
  const total = choices.data?.total ?? 0;
  const searching = draft.trim() !== search || (choices.isFetching && choices.isPlaceholderData);
  // The newest match; not the chosen crawl, listed after the matches when it is not one of them.
  const first = total > 0 ? items?.[0] : undefined;

  // Enter pressed: the first match is taken once the search typed so far has answered.
  const [picking, setPicking] = useState(false);
  useEffect(() => {
    if (!picking || searching || !choices.data) return;
    setPicking(false);
    if (first) onChange(first.id);
  }, [picking, searching, choices.data, first, onChange]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      // In a form (the AAH tester's), Enter here picks a crawl rather than submitting it.
      event.preventDefault();
      setSearch(draft.trim());
      setPicking(true);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      document.getElementById(id)?.focus();
    }
  };

  return (
    <div className="flex flex-wrap items-end gap-2">
      <div>
        <label htmlFor={`${id}-search`} className="mb-1 block text-sm font-medium">Find a crawl</label>
        <input
          id={`${id}-search`}
          type="search"
          className="input w-56"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="name or #id"
          aria-controls={id}
          aria-describedby={`${id}-matches`}
          autoComplete="off"
        />
      </div>
      <div>
        <label htmlFor={id} className="mb-1 block text-sm font-medium">Crawl</label>
        <select id={id} className={className ?? 'input'} value={value ?? ''} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)} required={required} aria-describedby={`${id}-matches`}>
          <option value="">Choose a crawl…</option>
          {items?.map((c) => <option key={c.id} value={c.id}>{optionLabel(c)}</option>)}
        </select>
      </div>
      <p id={`${id}-matches`} role="status" className="w-full text-xs text-slate-600" data-testid={`${id}-matches`}>
        {searching ? 'Searching…' : choices.data ? pickerMatchWords(search, total, CRAWL_CHOICES) : ''}
      </p>
    </div>
  );
}
