'use client';
import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { ApiError } from '../../lib/client/api';
import { formatDate, useAddAnnotation, useAnnotations } from '../../lib/client/queries';
import { useCan } from '../../lib/client/session';

/**
 * Curators' notes: on the whole crawl (`captureId` null: every note of the crawl is listed, the
 * new one is the crawl's) or on one capture. Anyone may read them; writing needs "annotate".
 */
export function Annotations({ crawlId, captureId }: { crawlId: number; captureId: number | null }) {
  const list = useAnnotations(crawlId, captureId);
  const add = useAddAnnotation(crawlId);
  const mayAnnotate = useCan('annotate');
  const [text, setText] = useState('');
  const id = captureId === null ? 'crawl-note' : `capture-note-${captureId}`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ captureId, text }, { onSuccess: () => setText('') });
  };
  const issue = add.error instanceof ApiError && add.error.issues.length ? add.error.issues.map((i) => i.message).join('; ') : null;
  return (
    <div className="space-y-2" data-testid={captureId === null ? 'crawl-annotations' : 'capture-annotations'}>
      <ErrorMessage error={list.error} />
      {list.data && list.data.length === 0 && <p className="text-sm text-slate-600">No annotation yet.</p>}
      {list.data && list.data.length > 0 && (
        <ul className="space-y-1 text-sm">
          {list.data.map((a) => (
            <li key={a.id} data-testid="annotation">
              <span className="text-xs text-slate-600">
                {a.username ?? 'someone'}, {formatDate(a.createdAt)}
                {captureId === null && a.url && <> · <span className="font-mono">{a.url}</span></>}
              </span>
              <p className="whitespace-pre-wrap" dir="auto">{a.text}</p>
            </li>
          ))}
        </ul>
      )}
      {mayAnnotate && (
        <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label={captureId === null ? 'Annotate the crawl' : 'Annotate this capture'}>
          <div className="min-w-64 flex-1">
            <label htmlFor={id} className="mb-1 block text-sm font-medium">{captureId === null ? 'Note on the crawl' : 'Note on this capture'}</label>
            <textarea id={id} className="input" rows={2} value={text} onChange={(e) => setText(e.target.value)} aria-invalid={issue ? true : undefined} aria-describedby={issue ? `${id}-error` : undefined} />
            {issue && <p id={`${id}-error`} className="text-sm text-red-700">{issue}</p>}
          </div>
          <button type="submit" className="btn" disabled={add.isPending || !text.trim()}>Add note</button>
          {!issue && <ErrorMessage error={add.error} />}
        </form>
      )}
    </div>
  );
}
