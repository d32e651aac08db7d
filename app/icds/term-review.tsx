'use client';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import type { IcdInput } from '../../worker/icd/schema';
import { EditConflictNotice } from '../components/edit-conflict-notice';
import { ErrorMessage } from '../components/error-message';
import { FieldErrors, controlProps } from '../components/field';
import { ApiError, api, apiLines } from '../lib/client/api';
import { editConflictOf, useEditConflict, type EditBasis } from '../lib/client/edit-conflict';
import { useIcdSaving, useSaveIcd } from '../lib/client/queries';
import { useCan } from '../lib/client/session';
import type { TopicTermEdits } from './topic-term-edits';
import { recordFromTerms, strongestFirst, typedTermWeight, withAddedStems, withTopicTerms, withoutTerm, type Term } from './topic-terms';

interface ReferenceCrawlResult {
  pages: number | unknown[];
  terms: Term[];
}

interface Progress {
  fetched: number;
  documents: number;
  total: number;
  url: string;
}

/** One line of the reference crawl's answer (POST …/reference-crawl with Accept: application/x-ndjson). */
type ReferenceCrawlLine = { progress: Progress } | { result: ReferenceCrawlResult } | { error: string; status?: number };

/** Runs the reference crawl, reporting progress; resolves with its result, or throws its error. */
async function runReferenceCrawl(icdId: number, onProgress: (p: Progress) => void, signal: AbortSignal): Promise<ReferenceCrawlResult> {
  let result: ReferenceCrawlResult | null = null;
  try {
    await apiLines('POST', `/api/icds/${icdId}/reference-crawl`, (raw) => {
      const line = raw as ReferenceCrawlLine;
      if ('progress' in line) onProgress(line.progress);
      else if ('result' in line) result = line.result;
      else throw new ApiError(line.status ?? 500, line.error);
    }, signal);
  } catch (err) {
    if (signal.aborted) throw new Error('The reference crawl was cancelled; the terms are unchanged.');
    throw err;
  }
  if (!result) throw new Error('The reference crawl ended without a result.');
  return result;
}

/**
 * The reference crawl and its term review: run it, see the most representative terms, remove or
 * add terms, and save them as the ICD's topic vector (`focus.topicTerms`). The edited list is
 * `edits`, held by the editor (the start button saves it too); `definition` is the stored ICD, and
 * `version` the stored version the page's edits build on.
 */
export function TermReview({ icdId, definition, edits, version }: { icdId: number; definition: IcdInput; edits: TopicTermEdits; version: EditBasis }) {
  const mayDesign = useCan('design');
  const { terms, unsaved } = edits;
  const [pages, setPages] = useState<number | null>(null);
  const [newTerm, setNewTerm] = useState('');
  const [newWeight, setNewWeight] = useState('1');
  const typedWeight = typedTermWeight(newWeight);
  const weightErrors = 'error' in typedWeight ? [typedWeight.error] : undefined;
  const save = useSaveIcd();
  const saving = useIcdSaving();
  const [progress, setProgress] = useState<Progress | null>(null);
  const running = useRef<AbortController | null>(null);
  const run = useMutation({
    mutationFn: () => {
      running.current = new AbortController();
      setProgress(null);
      return runReferenceCrawl(icdId, setProgress, running.current.signal);
    },
    onSettled: () => (running.current = null),
    onSuccess: (result) => {
      edits.edit(() => strongestFirst(result.terms));
      setPages(Array.isArray(result.pages) ? result.pages.length : Number(result.pages));
    },
  });

  const [added, setAdded] = useState<{ text: string; stems: string[] } | null>(null);
  // A typed term becomes the stems the crawl scores (as the reference crawl's are), via the server's analyzer.
  const addTerm = useMutation({
    mutationFn: ({ text }: { text: string; weight: number }) => api<{ terms: string[] }>('POST', `/api/icds/${icdId}/topic-terms`, { text }),
    onSuccess: ({ terms: stems }, { text, weight }) => {
      edits.edit((list) => withAddedStems(list, stems, weight));
      setAdded({ text, stems });
      setNewTerm('');
    },
  });
  const add = (event: FormEvent) => {
    event.preventDefault();
    const text = newTerm.trim();
    if (!text || !('weight' in typedWeight)) return;
    addTerm.mutate({ text, weight: typedWeight.weight });
  };
  const remove = (term: string) => edits.edit((list) => withoutTerm(list, term));
  const conflict = useEditConflict(version.basedOn);
  // On the stored definition: form edits not saved yet stay in the form, and stay unsaved.
  const saveTerms = (basedOn = version.basedOn) =>
    save.mutate(
      { id: icdId, icd: withTopicTerms(definition, recordFromTerms(terms)), basedOn },
      { onSuccess: (record) => version.saved(record.updatedAt), onError: (error) => conflict.caught(error, {}) },
    );
  const maxWeight = Math.max(1e-9, ...terms.map((t) => t.weight));

  return (
    <section className="card space-y-4" aria-labelledby="term-review-title" data-testid="term-review">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="term-review-title" className="text-lg font-semibold">Topic terms (reference crawl)</h2>
        {mayDesign && (
          <button type="button" className="btn" onClick={() => run.mutate()} disabled={run.isPending} data-testid="run-reference-crawl">
            {run.isPending ? 'Running the reference crawl…' : 'Run reference crawl'}
          </button>
        )}
        {run.isPending && (
          <button type="button" className="btn" onClick={() => running.current?.abort()} data-testid="cancel-reference-crawl">
            Cancel
          </button>
        )}
        {run.isPending && progress && (
          <span role="status" className="flex items-center gap-2 text-sm text-slate-700" data-testid="reference-progress">
            <progress max={progress.total} value={progress.documents} className="w-32" />
            {progress.documents} of up to {progress.total} pages ({progress.fetched} URLs tried)
            <span className="max-w-xs truncate font-mono text-xs" title={progress.url}>{progress.url}</span>
          </span>
        )}
        {pages !== null && <span role="status" className="text-sm text-slate-700">{pages} reference pages analysed; review the terms and save.</span>}
      </div>
      <p className="text-sm text-slate-600">
        The reference crawl fetches the seeds and pages near them and builds the topic vector from their text. Remove terms that
        do not belong to the topic, add missing ones, then save: the crawl scores links against these terms.
      </p>
      <ErrorMessage error={run.error} />
      {terms.length === 0 ? (
        <p className="text-sm text-slate-600">No topic terms yet: the keywords and topics alone make the topic vector.</p>
      ) : (
        <ul className="grid gap-1 sm:grid-cols-2 lg:grid-cols-3" data-testid="topic-terms">
          {terms.map((t) => (
            <li key={t.term} className="flex items-center gap-2 rounded border border-slate-200 px-2 py-1 text-sm" data-testid="topic-term" data-term={t.term}>
              <span className="min-w-0 flex-1 truncate font-mono">{t.term}</span>
              <span className="h-2 w-16 rounded bg-slate-100" aria-hidden>
                <span className="block h-2 rounded bg-sky-600" style={{ width: `${(t.weight / maxWeight) * 100}%` }} />
              </span>
              <span className="w-14 text-right tabular-nums text-slate-600">{t.weight.toFixed(3)}</span>
              {mayDesign && (
                <button type="button" className="rounded px-1 text-red-800 hover:bg-red-50" onClick={() => remove(t.term)} aria-label={`Remove term ${t.term}`}>
                  ✕
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {mayDesign && (
        <div className="flex flex-wrap items-end gap-3">
          <form onSubmit={add} className="flex flex-wrap items-end gap-2" aria-label="Add a topic term">
            <div>
              <label htmlFor="new-term" className="mb-1 block text-sm font-medium">Term</label>
              <input id="new-term" className="input" value={newTerm} onChange={(e) => setNewTerm(e.target.value)} />
            </div>
            <div className="w-24">
              <label htmlFor="new-term-weight" className="mb-1 block text-sm font-medium">Weight</label>
              <input className="input" type="text" inputMode="decimal" {...controlProps('new-term-weight', weightErrors)} value={newWeight} onChange={(e) => setNewWeight(e.target.value)} />
            </div>
            <button type="submit" className="btn" disabled={addTerm.isPending || weightErrors !== undefined}>Add term</button>
            {/* Under the row rather than in the narrow weight column, where it would wrap word by word. */}
            {weightErrors && (
              <div className="basis-full">
                <FieldErrors id="new-term-weight" errors={weightErrors} />
              </div>
            )}
          </form>
          <button type="button" className="btn btn-primary" onClick={() => saveTerms()} disabled={saving || !unsaved} data-testid="save-terms">
            Save topic terms
          </button>
          {!unsaved && save.isSuccess && <span role="status" className="text-sm text-emerald-800">Topic terms saved.</span>}
        </div>
      )}
      {added && !addTerm.isPending && !addTerm.error && (
        <p role="status" className="text-sm text-slate-700" data-testid="added-terms">
          “{added.text}” added as {added.stems.map((s, i) => <span key={s}>{i > 0 && ', '}<span className="font-mono">{s}</span></span>)} (the crawl compares word stems).
        </p>
      )}
      <ErrorMessage error={addTerm.error} />
      <EditConflictNotice what="crawl definition" conflict={conflict.shown} busy={saving || version.reloading} onReload={version.reload} onOverwrite={(c) => saveTerms(c.updatedAt)} />
      <ErrorMessage error={editConflictOf(save.error) ? null : save.error} />
    </section>
  );
}
