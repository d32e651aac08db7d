'use client';
import { ChartFrame } from '../../components/charts';
import { ErrorMessage } from '../../components/error-message';
import { layoutLines } from '../../lib/client/chart-layout';
import { useCaptures, useFrontierTop, useRelevance, type FrontierEntry, type RelevancePoint } from '../../lib/client/queries';

const MODULE_LABELS: Record<string, string> = { text: 'text', urlPattern: 'URL pattern', spam: 'spam filter', entity: 'entities', aah: 'AAH' };

/** The normalised mean similarity of a window (the API spells it either way). */
export function normalisedOf(p: RelevancePoint): number {
  return p.normalized ?? p.normalised ?? 0;
}

/**
 * Focused crawling, live: ARCOMEM Figure 8 (mean similarity per window of crawled documents,
 * divided by the largest window mean, and the harvest ratio), the most relevant captures and
 * the frontier's best URLs with why they rank there.
 */
export function RelevancePanel({ crawlId, running, threshold }: { crawlId: number; running: boolean; threshold: number }) {
  const relevance = useRelevance(crawlId);
  const points = relevance.data?.points ?? [];
  const layout = layoutLines(
    [
      { key: 'normalised', label: 'normalised mean similarity', colour: '#0369a1', points: points.map((p) => [p.documents, normalisedOf(p)]) },
      { key: 'harvest', label: 'harvest ratio', colour: '#c2410c', points: points.map((p) => [p.documents, p.harvestRatio]) },
    ],
    { width: 560, height: 220, yDomain: [0, 1], yFormat: (v) => v.toFixed(1), yMinStep: 0.1 },
  );
  const last = points[points.length - 1];
  return (
    <section aria-labelledby="relevance-title" className="space-y-4">
      <h2 id="relevance-title" className="text-lg font-semibold">Relevance</h2>
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="card" data-testid="relevance-chart" data-points={points.length} data-documents={last?.documents ?? 0}>
          <ErrorMessage error={relevance.error} />
          <ChartFrame
            layout={layout}
            title={`Relevance per window of ${relevance.data?.windowSize ?? '…'} documents`}
            legend={layout.paths.map((p) => ({ key: p.key, label: p.label, colour: p.colour }))}
            xLabel="documents crawled"
          />
          {last ? (
            <p className="text-sm text-slate-700" data-testid="relevance-summary">
              {last.documents} documents · mean similarity {last.meanSimilarity.toFixed(3)} · harvest ratio {(last.harvestRatio * 100).toFixed(1)} % (similarity &gt; {threshold})
            </p>
          ) : (
            <p className="text-sm text-slate-600">No document analysed yet.</p>
          )}
        </div>
        <MostRelevant crawlId={crawlId} />
      </div>
      <FrontierTop crawlId={crawlId} running={running} />
    </section>
  );
}

function MostRelevant({ crawlId }: { crawlId: number }) {
  const captures = useCaptures(crawlId, 1, '', 'similarity', 10);
  return (
    <div className="card space-y-2">
      <h3 className="font-semibold">Most relevant captures</h3>
      <ErrorMessage error={captures.error} />
      {captures.data && captures.data.items.length === 0 && <p className="text-sm text-slate-600">No page compared with the topic yet.</p>}
      <ol className="space-y-1 text-sm" data-testid="most-relevant">
        {captures.data?.items.map((c) => (
          <li key={c.id} className="flex gap-2" data-testid="relevant-capture">
            <span className="w-12 text-right tabular-nums" title="cosine similarity of the page with the topic">{c.similarity?.toFixed(2)}</span>
            <span className="w-20 text-right text-xs tabular-nums text-slate-600" title="priority of the link when it was fetched">
              {c.score == null ? '' : `prio ${c.score.toFixed(2)}`}
            </span>
            <span className="min-w-0 flex-1 truncate font-mono text-xs" title={c.url}>{c.url}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** "Why 0.74": the module scores and weights behind a priority. */
export function explain(entry: FrontierEntry): { module: string; score: number; weight?: number }[] {
  const b = entry.breakdown;
  if (!b) return [];
  const scores = ('scores' in b && b.scores && typeof b.scores === 'object' ? b.scores : b) as Record<string, unknown>;
  const weights = ('weights' in b && b.weights && typeof b.weights === 'object' ? b.weights : {}) as Record<string, number>;
  return Object.entries(scores)
    .filter(([k, v]) => typeof v === 'number' && k !== 'priority')
    .map(([module, score]) => ({ module, score: score as number, weight: weights[module] }));
}

function FrontierTop({ crawlId, running }: { crawlId: number; running: boolean }) {
  const top = useFrontierTop(crawlId, running);
  return (
    <div className="card space-y-2">
      <h3 className="font-semibold">Next in the frontier</h3>
      <ErrorMessage error={top.error} />
      {top.data && top.data.length === 0 && <p className="text-sm text-slate-600">The frontier is empty.</p>}
      <ul className="space-y-1 text-sm" data-testid="frontier-top">
        {top.data?.map((entry) => {
          const parts = explain(entry);
          return (
            <li key={entry.url}>
              <details>
                <summary className="flex cursor-pointer gap-2">
                  <span className="w-12 text-right font-semibold tabular-nums">{entry.score.toFixed(2)}</span>
                  <span className="min-w-0 flex-1 truncate font-mono text-xs" title={entry.url}>{entry.url}</span>
                  <span className="text-xs text-sky-800">why {entry.score.toFixed(2)}?</span>
                </summary>
                <div className="ml-14 mt-1 rounded bg-slate-50 p-2 text-xs" data-testid="score-breakdown">
                  {parts.length === 0 ? (
                    'No module scored this URL (seed, or found before analysis).'
                  ) : (
                    <>
                      Weighted average of{' '}
                      {parts.map((p, i) => (
                        <span key={p.module}>
                          {i > 0 && ', '}
                          {MODULE_LABELS[p.module] ?? p.module} <strong>{p.score.toFixed(2)}</strong>
                          {p.weight !== undefined && <> (weight {p.weight})</>}
                        </span>
                      ))}
                      {' '}= {entry.score.toFixed(2)}
                    </>
                  )}
                </div>
              </details>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
