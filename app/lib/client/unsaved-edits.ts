import { leavesPageInApp } from './in-app-navigation';

/**
 * The forms of this tab that hold unsaved edits, and the guards that protect them while there is
 * at least one: closing or reloading the tab (`beforeunload`), following an in-app link, and Back
 * or Forward. The API helper reads it too, so a lost session does not send the tab to the login
 * page over them.
 *
 * One registry per tab, in this module, because those listeners are per document: with one set
 * per form, the user would be asked once per form holding edits.
 */

/** The question asked before an in-app navigation drops unsaved edits. */
export const LEAVE_QUESTION = 'This page has unsaved edits. Leave it and lose them?';

const holders = new Set<symbol>();
const subscribers = new Set<() => void>();
let detachBeforeUnload: (() => void) | null = null;
/** The history entry of the page holding the edits, put back when Back or Forward is declined. */
let editedEntry: { state: unknown; url: string } | null = null;

/** True while some form of this tab holds unsaved edits. */
export function hasUnsavedEdits(): boolean {
  return holders.size > 0;
}

/** Calls `onChange` when `hasUnsavedEdits()` may have changed; returns the unsubscribe. */
export function subscribeUnsavedEdits(onChange: () => void): () => void {
  subscribers.add(onChange);
  return () => subscribers.delete(onChange);
}

/** Marks the calling form as holding unsaved edits until the returned release is called. */
export function holdUnsavedEdits(): () => void {
  const holder = Symbol('unsaved edits');
  holders.add(holder);
  if (holders.size === 1) {
    editedEntry = { state: window.history.state as unknown, url: window.location.href };
    detachBeforeUnload = listen(window, 'beforeunload', (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = ''; // still needed by Chromium to show the dialog
    });
    subscribers.forEach((s) => s());
  }
  return () => {
    if (!holders.delete(holder) || holders.size > 0) return;
    detachBeforeUnload?.();
    detachBeforeUnload = null;
    editedEntry = null;
    subscribers.forEach((s) => s());
  };
}

/** For a navigation made in code (not a link): true when there is nothing to lose or the user agrees to lose it. */
export function confirmLeave(): boolean {
  return !hasUnsavedEdits() || window.confirm(LEAVE_QUESTION);
}

/**
 * Asks before an in-app link or Back/Forward leaves unsaved edits; declining stays. Installed once
 * for the life of the page, and before the App Router's own popstate listener: Chromium calls a
 * window's popstate listeners in the order they were added (capture or not), and the router's
 * unmounts the form at once. An effect of a component inside the router (Providers) runs before
 * the router's own effect, which adds its listener.
 */
export function installLeaveGuards(): () => void {
  // Capture phase on the document, before React dispatches the click: a refused click never
  // reaches next/link's onClick (stopPropagation) nor the browser's navigation (preventDefault).
  const offClick = listen(
    document,
    'click',
    (event: MouseEvent) => {
      if (!hasUnsavedEdits()) return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement)) return;
      const facts = { href: link.href, target: link.target, download: link.hasAttribute('download') };
      if (!leavesPageInApp(event, facts, window.location.href) || window.confirm(LEAVE_QUESTION)) return;
      event.preventDefault();
      event.stopPropagation();
    },
    true,
  );
  // The address has already changed when popstate fires: declined, the router never hears of it
  // and the entry of the edited page is pushed back, so the address matches the page again.
  const offPopState = listen(window, 'popstate', (event: PopStateEvent) => {
    if (!hasUnsavedEdits() || !editedEntry) return;
    if (window.confirm(LEAVE_QUESTION)) {
      editedEntry = { state: event.state as unknown, url: window.location.href };
      return;
    }
    event.stopImmediatePropagation();
    window.history.pushState(editedEntry.state, '', editedEntry.url);
  });
  return () => {
    offClick();
    offPopState();
  };
}

function listen<E extends Event>(target: EventTarget, type: string, handler: (event: E) => void, capture = false): () => void {
  const listener = handler as EventListener;
  target.addEventListener(type, listener, capture);
  return () => target.removeEventListener(type, listener, capture);
}
