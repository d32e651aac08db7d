const COLOURS: Record<string, string> = {
  created: 'bg-slate-100 text-slate-800',
  running: 'bg-emerald-100 text-emerald-900',
  pausing: 'bg-amber-100 text-amber-900',
  paused: 'bg-amber-100 text-amber-900',
  stopping: 'bg-orange-100 text-orange-900',
  stopped: 'bg-slate-200 text-slate-800',
  finished: 'bg-sky-100 text-sky-900',
  failed: 'bg-red-100 text-red-900',
  pending: 'bg-slate-100 text-slate-800',
  ready: 'bg-sky-100 text-sky-900',
  done: 'bg-sky-100 text-sky-900',
  cancelled: 'bg-slate-200 text-slate-800',
};

/** A crawl's or an export's status as a coloured word (the word carries the meaning, not the colour). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span data-testid="status" data-status={status} className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${COLOURS[status] ?? 'bg-slate-100 text-slate-800'}`}>
      {status}
    </span>
  );
}
