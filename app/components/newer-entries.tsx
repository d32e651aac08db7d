/** Under pinned pages (usePinnedPages): how many entries came since, and the way back to them. */
export function NewerEntries({ count, noun, onShow }: { count: number; noun: [one: string, many: string]; onShow(): void }) {
  if (count <= 0) return null;
  return (
    <p className="text-sm text-slate-700" data-testid="newer-entries">
      {count} newer {count === 1 ? noun[0] : noun[1]} since these pages were opened.{' '}
      <button type="button" className="underline" onClick={onShow}>Show the newest</button>
    </p>
  );
}
