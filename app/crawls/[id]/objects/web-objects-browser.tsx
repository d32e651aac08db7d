'use client';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { Pager } from '../../../components/pager';
import { useWebObjects, type ObjectFilter } from '../../../lib/client/aah';

const TYPES = ['', 'post', 'comment', 'article', 'page', 'title'];

/** The Web objects (posts, comments, articles) the AAH extracted in one crawl, filtered by type, host and text. */
export function WebObjectsBrowser({ crawlId }: { crawlId: number }) {
  const [filter, setFilter] = useState<ObjectFilter>({ type: '', host: '', q: '', page: 1 });
  const [draft, setDraft] = useState({ type: '', host: '', q: '' });
  const objects = useWebObjects(crawlId, filter);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilter({ ...draft, page: 1 });
  };
  const data = objects.data;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline gap-4">
        <h1 className="text-2xl font-bold">Web objects of crawl #{crawlId}</h1>
        <Link className="link text-sm" href={`/crawls/${crawlId}`}>Back to the crawl</Link>
      </div>
      <form onSubmit={submit} role="search" className="card flex flex-wrap items-end gap-3" aria-label="Filter Web objects">
        <div>
          <label htmlFor="object-type" className="mb-1 block text-sm font-medium">Type</label>
          <input id="object-type" className="input w-40" list="object-types" value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value })} placeholder="any" />
          <datalist id="object-types">{TYPES.filter(Boolean).map((t) => <option key={t} value={t} />)}</datalist>
        </div>
        <div>
          <label htmlFor="object-host" className="mb-1 block text-sm font-medium">Host</label>
          <input id="object-host" className="input w-56" value={draft.host} onChange={(e) => setDraft({ ...draft, host: e.target.value })} placeholder="any" />
        </div>
        <div className="flex-1">
          <label htmlFor="object-text" className="mb-1 block text-sm font-medium">Text</label>
          <input id="object-text" className="input" value={draft.q} onChange={(e) => setDraft({ ...draft, q: e.target.value })} placeholder="words in any field" />
        </div>
        <button type="submit" className="btn btn-primary">Filter</button>
      </form>
      <ErrorMessage error={objects.error} />
      {data && (
        <>
          {data.items.length === 0 && <p className="text-slate-600">No Web object matches.</p>}
          <ul className="space-y-2" data-testid="web-objects" data-total={data.total}>
            {data.items.map((o) => (
              <li key={o.id} className="card py-3" data-testid="web-object" data-type={o.type}>
                <div className="flex flex-wrap items-baseline gap-3 text-sm">
                  <span className="rounded bg-sky-100 px-1.5 py-0.5 text-xs font-semibold text-sky-900">{o.type}</span>
                  <bdi className="font-semibold">{String(o.fields.title ?? '')}</bdi>
                  {o.fields.author != null && <span className="text-slate-700">by {String(o.fields.author)}</span>}
                  {o.fields.date != null && <span className="text-slate-600">{String(o.fields.date)}</span>}
                  {o.rule && <span className="ml-auto font-mono text-xs text-slate-500">{o.rule}</span>}
                </div>
                {o.fields.body != null && <p className="mt-1 line-clamp-3 text-sm">{String(o.fields.body)}</p>}
                <dl className="mt-1 grid grid-cols-[8rem_1fr] gap-x-2 text-xs">
                  {Object.entries(o.fields)
                    .filter(([k]) => !['title', 'author', 'date', 'body'].includes(k))
                    .map(([k, v]) => (
                      <div key={k} className="contents"><dt className="font-semibold">{k}</dt><dd className="truncate">{String(v)}</dd></div>
                    ))}
                </dl>
                <p className="mt-1 truncate font-mono text-xs text-slate-500" title={o.url ?? o.sourceUrl}>{o.url ?? o.sourceUrl}</p>
              </li>
            ))}
          </ul>
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={(page) => setFilter({ ...filter, page })} label="Web objects pages" />
        </>
      )}
    </div>
  );
}
