'use client';
import { useRef, useState } from 'react';
import { ErrorMessage } from '../components/error-message';
import { useDeleteExport } from '../lib/client/queries';

/**
 * The Delete button of an export that has ended. A click asks first, in the page rather than in a
 * window.confirm: a group named "Confirm deleting export N" whose "Delete export N" button takes the
 * focus; "Keep it" or Escape closes it and gives the focus back to Delete. `onDeleted` is called
 * once the export is gone from the list (the card unmounts), so the caller can place the focus.
 */
export function DeleteExport({ exportId, crawlId, onDeleted }: { exportId: number; crawlId: number; onDeleted: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteExport();
  const opener = useRef<HTMLButtonElement>(null);
  const close = () => {
    setConfirming(false);
    // The button is rendered again by then: focus it on the next frame.
    requestAnimationFrame(() => opener.current?.focus());
  };
  return (
    <>
      {!confirming && (
        <button type="button" ref={opener} className="btn btn-danger" onClick={() => setConfirming(true)} aria-label={`Delete export ${exportId}…`} data-testid="delete-export">
          Delete…
        </button>
      )}
      {confirming && (
        <div
          role="group"
          aria-label={`Confirm deleting export ${exportId}`}
          className="flex flex-wrap items-center gap-3 rounded border border-red-300 bg-red-50 p-2 text-sm"
          onKeyDown={(e) => {
            if (e.key === 'Escape') close();
          }}
          data-testid="confirm-delete-export"
        >
          <span>Delete export #{exportId} and its files? The crawl&apos;s own files stay.</span>
          <button
            type="button"
            className="btn btn-danger"
            autoFocus
            disabled={remove.isPending}
            onClick={() => remove.mutate({ exportId, crawlId }, { onSuccess: onDeleted, onError: close })}
          >
            {remove.isPending ? 'Deleting…' : `Delete export ${exportId}`}
          </button>
          <button type="button" className="btn" disabled={remove.isPending} onClick={close}>
            Keep it
          </button>
        </div>
      )}
      <ErrorMessage error={remove.error} className="w-full" />
    </>
  );
}
