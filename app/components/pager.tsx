/** Previous / next for a paged list, with where we are. */
export function Pager({ page, pageSize, total, onPage, label }: { page: number; pageSize: number; total: number; onPage: (page: number) => void; label: string }) {
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  return (
    <nav aria-label={label} className="flex items-center gap-3 text-sm">
      <button type="button" className="btn" onClick={() => onPage(page - 1)} disabled={page <= 1}>Previous</button>
      <span>
        Page {page} of {pages} · {total} in all
      </span>
      <button type="button" className="btn" onClick={() => onPage(page + 1)} disabled={page >= pages}>Next</button>
    </nav>
  );
}
