'use client';
import { ErrorMessage } from '../components/error-message';
import { StatusBadge } from '../components/status-badge';
import { useAdaptedRules, useReviewAdaptedRule, type AdaptedRuleRow } from '../lib/client/aah';
import { formatDate } from '../lib/client/queries';
import { useCan } from '../lib/client/session';

/** Rules the AAH adapted when a template drifted: what changed, where it was proven, approve or reject. */
export function AdaptedRules() {
  const rules = useAdaptedRules();
  return (
    <section aria-labelledby="adapted-title" className="card space-y-3">
      <h2 id="adapted-title" className="text-lg font-semibold">Adapted rules</h2>
      <p className="text-sm text-slate-600">
        When an extraction action stopped matching, the helper tried relaxed expressions and adopted one only after it worked on
        several more pages. Approve the ones that are right; rejected rules are no longer used.
      </p>
      <ErrorMessage error={rules.error} />
      {rules.data?.length === 0 && <p className="text-sm text-slate-600">No adapted rule.</p>}
      <ul className="space-y-3">
        {rules.data?.map((rule) => <AdaptedRuleCard key={`${rule.crawlId ?? ''}:${rule.id}`} rule={rule} />)}
      </ul>
    </section>
  );
}

function AdaptedRuleCard({ rule }: { rule: AdaptedRuleRow }) {
  const review = useReviewAdaptedRule();
  const mayDesign = useCan('design');
  const fields = [...new Set([...Object.keys(rule.original?.fields ?? {}), ...Object.keys(rule.adapted.fields)])];
  return (
    <li className="rounded border border-slate-200 p-3 text-sm" data-testid="adapted-rule" data-status={rule.status}>
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-mono font-semibold">{rule.originalRule}</span>
        <StatusBadge status={rule.status} />
        <span className="text-slate-600">adopted {formatDate(rule.acceptedAt)}{rule.crawlId ? ` in crawl #${rule.crawlId}` : ''}</span>
        {mayDesign && (
          <span className="ml-auto flex gap-2">
            <button type="button" className="btn" disabled={review.isPending || rule.status === 'approved'} onClick={() => review.mutate({ id: rule.id, status: 'approved' })} aria-label={`Approve ${rule.id}`}>Approve</button>
            <button type="button" className="btn btn-danger" disabled={review.isPending || rule.status === 'rejected'} onClick={() => review.mutate({ id: rule.id, status: 'rejected' })} aria-label={`Reject ${rule.id}`}>Reject</button>
          </span>
        )}
      </div>
      <table className="table-base mt-2 font-mono text-xs">
        <thead>
          <tr><th scope="col">part</th><th scope="col">original</th><th scope="col">adapted</th></tr>
        </thead>
        <tbody>
          <tr><td>object</td><td>{rule.original?.select ?? '–'}</td><td>{rule.adapted.select}</td></tr>
          {fields.map((f) => (
            <tr key={f}><td>{f}</td><td>{rule.original?.fields[f] ?? '–'}</td><td>{rule.adapted.fields[f] ?? '–'}</td></tr>
          ))}
        </tbody>
      </table>
      <p className="mt-1 text-xs text-slate-700">Changes: {rule.mutations.join('; ') || '–'}</p>
      <p className="text-xs text-slate-600">
        Generated on <span className="font-mono">{rule.generatedOn ?? '–'}</span>; worked on {rule.validatedOn.length} more page{rule.validatedOn.length === 1 ? '' : 's'}.
      </p>
      <ErrorMessage error={review.error} />
    </li>
  );
}
