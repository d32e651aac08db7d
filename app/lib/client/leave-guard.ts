'use client';
import { useEffect } from 'react';

/**
 * While `unsaved` is true, closing or reloading the tab asks the browser's "leave this page?"
 * first, so an edited form is not lost by accident.
 */
export function useLeaveGuard(unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = ''; // still needed by Chromium to show the dialog
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);
}
