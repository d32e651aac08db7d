'use client';
import { ErrorMessage } from '../components/error-message';
import { formatDate, useOtherCrawlsOfIcd } from '../lib/client/queries';
import { isolate } from '../lib/client/bidi-isolate';

/**
 * The other crawls of the chosen crawl's ICD (a schedule's successive crawls, its re-crawls) as
 * checkboxes: those ticked go into the same export, one collection in which each capture keeps its
 * date. A crawl that cannot be exported now (running…) is shown disabled, saying why.
 */
export function OtherCrawlsPicker({ crawlId, value, onChange }: { crawlId: number; value: readonly number[]; onChange: (ids: number[]) => void }) {
  const others = useOtherCrawlsOfIcd(crawlId);
  if (others.isError) return <ErrorMessage error={others.error} />;
  if (!others.data?.length) return null;
  const toggle = (id: number, on: boolean) => onChange(on ? [...value, id].sort((a, b) => a - b) : value.filter((x) => x !== id));
  return (
    <fieldset className="w-full text-sm" data-testid="export-other-crawls" aria-describedby="export-other-crawls-help">
      <legend className="mb-1 font-medium">With other crawls of this ICD</legend>
      <p id="export-other-crawls-help" className="mb-1 text-xs text-slate-600">
        One collection of them all: one set of WARC files (or one WACZ) with one index and one page list, each capture at its own date, so a page captured by several crawls replays at each.
      </p>
      <ul className="flex flex-col gap-1">
        {others.data.map((c) => {
          const when = c.finishedAt ?? c.startedAt;
          const refusalId = `export-other-crawl-${c.id}-refusal`;
          return (
            <li key={c.id}>
              <label className="flex items-center gap-1">
                <input
                  type="checkbox"
                  value={c.id}
                  checked={value.includes(c.id)}
                  disabled={c.exportRefusal !== null}
                  onChange={(e) => toggle(c.id, e.target.checked)}
                  aria-describedby={c.exportRefusal ? refusalId : undefined}
                  data-testid="export-other-crawl"
                />
                {isolate(c.name)} #{c.id} ({c.status}{when ? `, ${formatDate(when)}` : ''})
              </label>
              {c.exportRefusal && <span id={refusalId} className="ml-5 text-xs text-slate-600">{c.exportRefusal}.</span>}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
