'use client';
import { useRef, useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { ApiError } from '../../lib/client/api';
import { formatDate, useAddExclusion, useExclusions, useRemoveExclusion, useTestExclusion } from '../../lib/client/queries';
import { useCan } from '../../lib/client/session';
import { testSummary } from './exclusion-test-summary';

/** An error of the pattern field: a 400's issues, or a 409's reason (the crawl excludes it already …). */
function fieldMessage(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.issues.length) return error.issues.map((i) => i.message).join('; ');
  return error.status === 400 || error.status === 409 ? error.message : null;
}

/**
 * Live exclusions (Browsertrix's "Edit exclusions"): the crawl's exclude patterns, and while it has
 * not ended a form to test a pattern against the URLs waiting in its queue and to exclude it
 * without stopping the crawl, and a Remove button by each pattern. Enter excludes; Test only counts.
 */
export function LiveExclusions({ crawlId, ended, running }: { crawlId: number; ended: boolean; running: boolean }) {
  const list = useExclusions(crawlId, running);
  const test = useTestExclusion(crawlId);
  const add = useAddExclusion(crawlId);
  const remove = useRemoveExclusion(crawlId);
  const mayRun = useCan('run');
  const [removed, setRemoved] = useState<string | null>(null);
  const mayChange = !ended && mayRun;
  const [pattern, setPattern] = useState('');
  const [added, setAdded] = useState<string | null>(null);
  const edit = (value: string) => {
    setPattern(value);
    test.reset();
    add.reset();
  };
  const field = useRef<HTMLInputElement>(null);
  const removePattern = (p: string) => {
    setAdded(null);
    setRemoved(null);
    remove.mutate(p, {
      onSuccess: () => {
        setRemoved(p);
        // Its button goes with it: the keyboard's focus goes to the pattern field, not to the page's top.
        field.current?.focus();
      },
    });
  };
  const exclude = (event: FormEvent) => {
    event.preventDefault();
    if (!pattern) return;
    test.reset();
    setRemoved(null);
    add.mutate(pattern, {
      onSuccess: () => {
        setAdded(pattern);
        setPattern('');
      },
    });
  };
  const issue = fieldMessage(add.error) ?? fieldMessage(test.error);
  const tested = test.data && test.data.pattern === pattern ? test.data : null;
  return (
    <section aria-labelledby="exclusions-title" className="card space-y-3" data-testid="live-exclusions">
      <h2 id="exclusions-title" className="text-lg font-semibold">Exclusions</h2>
      <ErrorMessage error={list.error} />
      {list.data && list.data.patterns.length === 0 && <p className="text-sm text-slate-600">The crawl excludes no pattern.</p>}
      {list.data && list.data.patterns.length > 0 && (
        <ul className="space-y-1 text-sm" aria-label="Excluded patterns">
          {list.data.patterns.map((p) => (
            <li key={p.pattern} data-testid="exclusion">
              <code className="font-mono">{p.pattern}</code>{' '}
              <span className="text-xs text-slate-600">
                {!p.live ? 'from the definition'
                  : p.appliedAt ? `added ${formatDate(p.addedAt)}, applied: ${(p.excluded ?? 0).toLocaleString('en-US')} waiting URL${p.excluded === 1 ? '' : 's'} excluded`
                  : `added ${formatDate(p.addedAt)}, ${ended ? 'never applied: the crawl ended first' : 'applied when the crawl runs'}`}
              </span>{' '}
              {mayChange && (
                <button
                  type="button" className="btn px-2 py-0.5 text-xs" disabled={remove.isPending} onClick={() => removePattern(p.pattern)}
                  aria-label={`Remove the exclusion ${p.pattern}`} aria-describedby="exclusion-remove-help"
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {mayChange && list.data && list.data.patterns.length > 0 && (
        <p id="exclusion-remove-help" className="text-xs text-slate-600">
          Remove: links found from then on that match the pattern are crawled again; the URLs it has excluded already stay excluded.
        </p>
      )}
      <div aria-live="polite" className="text-sm">
        <ErrorMessage error={remove.error} />
        {removed && <p data-testid="exclusion-removed">Removed <code className="font-mono">{removed}</code>: links found from now on that match it are crawled again (within a second while the crawl runs); the URLs it excluded stay excluded.</p>}
      </div>
      {mayChange && (
        <form onSubmit={exclude} className="space-y-2" aria-label="Exclude URLs from the crawl">
          <div className="flex flex-wrap items-end gap-2">
            <div className="min-w-64 flex-1">
              <label htmlFor="exclusion-pattern" className="mb-1 block text-sm font-medium">Exclude URLs matching (regular expression)</label>
              <input
                id="exclusion-pattern" ref={field} className="input font-mono" value={pattern} onChange={(e) => edit(e.target.value)} placeholder="/calendar\?day="
                spellCheck={false} autoComplete="off"
                aria-invalid={issue ? true : undefined} aria-describedby={issue ? 'exclusion-pattern-error' : 'exclusion-pattern-help'}
              />
              {issue ? (
                <p id="exclusion-pattern-error" className="text-sm text-red-700">{issue}</p>
              ) : (
                <p id="exclusion-pattern-help" className="text-xs text-slate-600">Links found from now on and URLs waiting in the queue that match are excluded; pages under way finish.</p>
              )}
            </div>
            <button type="button" className="btn" disabled={!pattern || test.isPending} onClick={() => test.mutate(pattern)}>Test</button>
            <button type="submit" className="btn" disabled={!pattern || add.isPending}>Exclude</button>
          </div>
          {!issue && <ErrorMessage error={add.error ?? test.error} />}
          <div aria-live="polite" className="text-sm">
            {tested && (
              <div data-testid="exclusion-test">
                <p>{testSummary(tested)}</p>
                {tested.examples.length > 0 && (
                  <ul className="max-h-60 overflow-auto font-mono text-xs">
                    {tested.examples.map((url) => <li key={url}>{url}</li>)}
                  </ul>
                )}
              </div>
            )}
            {added && !pattern && <p data-testid="exclusion-added">Excluded <code className="font-mono">{added}</code>: the crawl applies it within a second.</p>}
          </div>
        </form>
      )}
    </section>
  );
}
