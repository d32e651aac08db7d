'use client';
import { useEffect } from 'react';
import { holdUnsavedEdits } from './unsaved-edits';

/**
 * While `unsaved` is true, leaving the page asks first, so an edited form is not lost by accident:
 * closing or reloading the tab (the browser's "leave this page?"), following a link of the
 * cockpit, and Back or Forward (a confirm; declining stays with the edits).
 */
export function useLeaveGuard(unsaved: boolean): void {
  useEffect(() => (unsaved ? holdUnsavedEdits() : undefined), [unsaved]);
}
