'use client';
import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { ApiError } from '../../lib/client/api';
import { useCorrectStoredIcd, useStoredIcd } from '../../lib/client/queries';
import { useCan } from '../../lib/client/session';
import { refusedFieldOf, replacementLine, type RefusedField } from '../../../worker/icd/stored-icd-repair';
import { editKindOf, editableText, typedValue } from './refused-settings-model';

/** The id of a field's textarea (`scope.exclude` → refused-scope-exclude). */
const fieldId = (field: string) => `refused-${field.replace(/[^a-zA-Z0-9]+/g, '-')}`;

/** A 400's issues by the refused field they are in. */
function issuesByField(error: unknown): Map<string, string[]> {
  const byField = new Map<string, string[]>();
  if (!(error instanceof ApiError) || error.status !== 400) return byField;
  for (const issue of error.issues) {
    const field = refusedFieldOf(issue.path);
    byField.set(field, [...(byField.get(field) ?? []), `${issue.path.join('.')}: ${issue.message}`]);
  }
  return byField;
}

/**
 * "Correct the refused settings": a crawl an earlier version created with settings this version
 * refuses waits, paused (or failed, by a version before this form), for them to be corrected (a
 * plain Resume is refused, and the crawl's controls offer this form in its place). Each
 * refused field is shown with its stored value and why, to edit in place; only those fields change,
 * validated by the server with today's rules, and the crawl resumes from where it was.
 */
export function RefusedSettings({ crawlId, status }: { crawlId: number; status: string }) {
  const mayRun = useCan('run');
  const stored = useStoredIcd(crawlId, status, mayRun && (status === 'paused' || status === 'failed'));
  const correct = useCorrectStoredIcd(crawlId);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [typingErrors, setTypingErrors] = useState<Record<string, string>>({});
  const refused = stored.data?.refused ?? [];
  // Nothing refused (most crawls): no section. Once corrected, it stays to say what was replaced.
  if (!mayRun || (refused.length === 0 && !correct.data && !stored.error)) return null;
  const textOf = (r: RefusedField) => texts[r.field] ?? editableText(r.value);
  const serverIssues = issuesByField(correct.error);

  const submit = (resume: boolean) => (event?: FormEvent) => {
    event?.preventDefault();
    const corrections: Record<string, unknown> = {};
    const errors: Record<string, string> = {};
    for (const r of refused) {
      const typed = typedValue(textOf(r), editKindOf(r.value));
      if ('error' in typed) errors[r.field] = typed.error;
      else corrections[r.field] = typed.value;
    }
    setTypingErrors(errors);
    if (Object.keys(errors).length) return;
    correct.mutate({ corrections, resume });
  };

  return (
    <section id="refused-settings" aria-labelledby="refused-settings-title" className="card space-y-3" data-testid="refused-settings">
      <h2 id="refused-settings-title" className="text-lg font-semibold">Correct the refused settings</h2>
      <ErrorMessage error={stored.error} />
      {correct.data && (
        <p role="status" data-testid="refused-settings-done" className="text-sm">
          Replaced {correct.data.replaced.map(replacementLine).join(', ')} (recorded with the crawl){correct.variables?.resume ? '; the crawl resumes.' : '.'}
        </p>
      )}
      {stored.data?.correctable && <p className="text-sm text-slate-700">{stored.data.correctable}</p>}
      {stored.data && !stored.data.correctable && refused.length > 0 && (
        <form onSubmit={submit(true)} className="space-y-3" aria-describedby="refused-settings-help">
          <p id="refused-settings-help" className="text-sm text-slate-700">
            An earlier version of Tidemark started this crawl with these settings, which this version refuses. Correct them to resume it
            from where it was: only these fields change (a list as a whole: an entry a line), the rest of its definition and its
            captures stay, and the replacement is recorded with the crawl.
          </p>
          {refused.map((r) => {
            const kind = editKindOf(r.value);
            const problems = typingErrors[r.field] ? [typingErrors[r.field]!] : serverIssues.get(r.field) ?? r.problems;
            const invalid = Boolean(typingErrors[r.field] || serverIssues.has(r.field));
            return (
              <div key={r.field}>
                <label htmlFor={fieldId(r.field)} className="mb-1 block text-sm font-medium">
                  <code className="font-mono">{r.field}</code>{kind === 'lines' ? ' (an entry a line)' : kind === 'json' ? ' (JSON)' : ''}
                </label>
                <textarea
                  id={fieldId(r.field)} className="input font-mono" rows={Math.min(8, Math.max(2, textOf(r).split('\n').length))}
                  value={textOf(r)} onChange={(e) => setTexts({ ...texts, [r.field]: e.target.value })}
                  spellCheck={false} autoComplete="off" aria-invalid={invalid || undefined} aria-describedby={`${fieldId(r.field)}-problems`}
                />
                <ul id={`${fieldId(r.field)}-problems`} className={`text-sm ${invalid ? 'text-red-700' : 'text-slate-700'}`}>
                  {problems.map((p, i) => <li key={i}>{invalid ? p : `Refused: ${p}`}</li>)}
                </ul>
              </div>
            );
          })}
          <ErrorMessage error={correct.error} />
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn" disabled={correct.isPending}>Correct and resume</button>
            <button type="button" className="btn" disabled={correct.isPending} onClick={() => submit(false)()}>Correct, keep paused</button>
          </div>
        </form>
      )}
    </section>
  );
}
