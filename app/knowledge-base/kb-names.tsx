'use client';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ErrorMessage } from '../components/error-message';
import { ApiError } from '../lib/client/api';
import { useCreateKnowledgeBase, useDeleteKnowledgeBase, useRenameKnowledgeBase } from '../lib/client/knowledge-base-names';
import { confirmLeave } from '../lib/client/unsaved-edits';

/** The name rule of the API (knowledgeBaseNameSchema), for the browser to check before sending. */
const NAME_PATTERN = '(?!\\.+$)[A-Za-z0-9._\\-]{1,64}';
const NAME_HINT = 'Letters, digits, . _ or - (at most 64), not only dots.';
/** The knowledge base crawl definitions use unless they name another; the server keeps it (see worker/store/knowledge-base-names.ts). */
const DEFAULT_NAME = 'default';

/**
 * The API's message about the name field: of a 400 (not a name), or of a 409 (a name taken); null
 * when there is none (the error is then shown whole, under the form).
 */
function nameIssue(error: unknown): string | null {
  return error instanceof ApiError && (error.status === 400 || error.status === 409) ? (error.issues.find((i) => i.path[0] === 'name')?.message ?? null) : null;
}

/** A name input with its label, hint and the API's message about it (an alert, read out when it comes). */
function NameField({ label, value, onChange, error, testId }: { label: string; value: string; onChange: (v: string) => void; error: unknown; testId: string }) {
  const id = useId();
  const issue = nameIssue(error);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">{label}</label>
      <input
        id={id} className="input" required maxLength={64} pattern={NAME_PATTERN} title={NAME_HINT} value={value} onChange={(e) => onChange(e.target.value)}
        aria-invalid={issue ? true : undefined} aria-describedby={issue ? `${id}-issue ${id}-hint` : `${id}-hint`} data-testid={testId} autoComplete="off" spellCheck={false}
      />
      {issue && <p id={`${id}-issue`} role="alert" className="mt-1 max-w-md text-xs text-red-800" data-testid={`${testId}-issue`}>{issue}</p>}
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">{NAME_HINT}</p>
    </div>
  );
}

/** Creates a knowledge base, empty or as a copy of the one shown; `onCreated` opens it. */
export function CreateKnowledgeBase({ current, onCreated }: { current: string | null; onCreated: (name: string) => void }) {
  const [name, setName] = useState('');
  const [from, setFrom] = useState<'empty' | 'copy'>('empty');
  const create = useCreateKnowledgeBase();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The new knowledge base replaces the editor: its unsaved edits would go without a word.
    if (!confirmLeave()) return;
    create.mutate({ name: name.trim(), copyOf: from === 'copy' && current ? current : undefined }, { onSuccess: (kb) => { setName(''); onCreated(kb.name); } });
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-start gap-3" aria-label="Create a knowledge base" data-testid="kb-create">
      <NameField label="New knowledge base" value={name} onChange={setName} error={create.error} testId="kb-create-name" />
      {current && (
        <fieldset className="text-sm">
          <legend className="mb-1 font-medium">Start from</legend>
          <label className="mr-3"><input type="radio" name="kb-create-from" checked={from === 'empty'} onChange={() => setFrom('empty')} /> empty</label>
          <label><input type="radio" name="kb-create-from" checked={from === 'copy'} onChange={() => setFrom('copy')} /> a copy of “{current}”</label>
        </fieldset>
      )}
      <button type="submit" className="btn btn-primary mt-6" disabled={create.isPending}>Create</button>
      {!nameIssue(create.error) && <ErrorMessage error={create.error} className="w-full" />}
    </form>
  );
}

/**
 * Renames or deletes the knowledge base `name` (not `default`). Both wait for unsaved edits to be
 * saved or discarded: the editor is of the name they change. `mayDelete`: the role's delete permission.
 */
export function RenameOrDeleteKnowledgeBase({ name, dirty, mayDelete, onRenamed, onDeleted }: {
  name: string; dirty: boolean; mayDelete: boolean; onRenamed: (to: string) => void; onDeleted: () => void;
}) {
  const [to, setTo] = useState(name);
  const [confirming, setConfirming] = useState(false);
  const rename = useRenameKnowledgeBase();
  const remove = useDeleteKnowledgeBase();
  // The Delete… button that opened the confirmation: the focus goes back to it when it closes
  // (Escape, Cancel, a refusal), not to the page's body, as the exports page's Delete does.
  const opener = useRef<HTMLButtonElement>(null);
  // Set when the confirmation closes; the focus moves once Delete… is back and enabled. A refusal
  // closed it while the failed delete was still pending: the button came back disabled, took no
  // focus, and the focus was left on the page's body (a test saw it under load).
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current || !opener.current || opener.current.disabled) return;
    refocus.current = false;
    opener.current.focus();
  });
  if (name === DEFAULT_NAME) {
    return <p className="text-sm text-slate-600">“{DEFAULT_NAME}” is the knowledge base crawl definitions use unless they name another: it can be edited, not renamed or deleted.</p>;
  }
  const closeConfirmation = () => {
    refocus.current = true;
    setConfirming(false);
  };
  // Each action clears what the other last said: a refusal to delete stayed under a rename done since.
  const submit = (e: FormEvent) => {
    e.preventDefault();
    remove.reset();
    rename.mutate({ from: name, to: to.trim() }, { onSuccess: (r) => onRenamed(r.name) });
  };
  const askToDelete = () => {
    remove.reset();
    rename.reset();
    setConfirming(true);
  };
  return (
    <div className="space-y-2" data-testid="kb-manage">
      <form onSubmit={submit} className="flex flex-wrap items-start gap-3" aria-label={`Rename or delete ${name}`}>
        <NameField label={`Rename “${name}” to`} value={to} onChange={setTo} error={rename.error} testId="kb-rename-name" />
        <button type="submit" className="btn mt-6" disabled={dirty || rename.isPending || to.trim() === name}>Rename</button>
        {mayDelete && !confirming && (
          <button type="button" ref={opener} className="btn btn-danger mt-6" disabled={dirty || remove.isPending} onClick={askToDelete}>Delete…</button>
        )}
      </form>
      {dirty && <p className="text-sm text-slate-700">Save or discard your edits to rename or delete this knowledge base.</p>}
      {confirming && (
        <div role="group" aria-label="Confirm deletion" className="flex flex-wrap items-center gap-3 rounded border border-red-300 bg-red-50 p-2 text-sm"
          onKeyDown={(e) => { if (e.key === 'Escape') closeConfirmation(); }}>
          <span>Delete “{name}”? Crawls already created keep their own copy of it.</span>
          <button type="button" className="btn btn-danger" autoFocus disabled={remove.isPending} onClick={() => remove.mutate(name, { onSuccess: onDeleted, onError: closeConfirmation })}>
            Delete “{name}”
          </button>
          <button type="button" className="btn" disabled={remove.isPending} onClick={closeConfirmation}>Cancel</button>
        </div>
      )}
      {!nameIssue(rename.error) && <ErrorMessage error={rename.error} />}
      <ErrorMessage error={remove.error} />
    </div>
  );
}
