'use client';
import { useEffect, useSyncExternalStore } from 'react';
import { hasUnsavedEdits, holdUnsavedEdits, subscribeUnsavedEdits } from './unsaved-edits';

/**
 * While `unsaved` is true, leaving the page asks first, so an edited form is not lost by accident:
 * closing or reloading the tab (the browser's "leave this page?"), following a link of the
 * cockpit, and Back or Forward (a confirm; declining stays with the edits). A lost session does
 * not send the tab to the login page meanwhile (see `api`).
 */
export function useLeaveGuard(unsaved: boolean): void {
  useEffect(() => (unsaved ? holdUnsavedEdits() : undefined), [unsaved]);
}

/** True while some form of this tab holds unsaved edits; re-renders when that changes. */
export function useUnsavedEdits(): boolean {
  return useSyncExternalStore(subscribeUnsavedEdits, hasUnsavedEdits, () => false);
}
