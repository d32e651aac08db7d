'use client';
import { useEffect, useRef } from 'react';
import type { EditConflict } from '../lib/client/edit-conflict';
import { formatDate } from '../lib/client/queries';

/**
 * Says that a save was refused because someone saved `what` since this page opened it, and offers
 * the two ways on: take their version (losing the edits here) or store these edits over it
 * (`onOverwrite` gets the conflict, whose version the save then names). Nothing without a
 * conflict. The notice takes the focus, so the keyboard reaches both buttons next.
 */
export function EditConflictNotice<C extends EditConflict>({ what, conflict, onReload, onOverwrite, busy }: { what: string; conflict: C | null; onReload: () => void; onOverwrite: (conflict: C) => void; busy: boolean }) {
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => notice.current?.focus(), [conflict]);
  if (!conflict) return null;
  return (
    <div ref={notice} tabIndex={-1} role="alert" data-testid="edit-conflict" className="space-y-2 rounded border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <p>
        This {what} was saved elsewhere at {formatDate(conflict.updatedAt)}, after this page opened it (by someone else, in another tab, or by a
        script). Your save was not stored, so those changes are not lost; your edits are still here, not saved.
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn" onClick={onReload} disabled={busy}>
          Reload theirs (your edits are discarded)
        </button>
        <button type="button" className="btn" onClick={() => onOverwrite(conflict)} disabled={busy}>
          Overwrite with mine
        </button>
      </div>
    </div>
  );
}
