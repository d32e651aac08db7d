/**
 * Which clicks take this tab to another page of the cockpit, told from plain facts about the click
 * and the link so it can be tested without a browser. The leave guard asks before those: the App
 * Router changes page without unloading it, so `beforeunload` never fires for them.
 */

/** What matters about a click: which button, which modifier keys, whether a handler refused it. */
export interface ClickFacts {
  button: number;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  defaultPrevented: boolean;
}

/** What matters about the link clicked. */
export interface LinkFacts {
  href: string;
  /** The `target` attribute ('' when absent). */
  target: string;
  /** The link has a `download` attribute. */
  download: boolean;
}

/**
 * True when following the link replaces the current page of the cockpit by another one in this
 * tab. Not for a modified or middle click (a new tab or window: nothing is left), another
 * target, a download, another origin or scheme (the page unloads, `beforeunload` asks), or a link
 * to this very page (a `#fragment` moves within it).
 */
export function leavesPageInApp(click: ClickFacts, link: LinkFacts, here: string): boolean {
  if (click.defaultPrevented || click.button !== 0) return false;
  if (click.altKey || click.ctrlKey || click.metaKey || click.shiftKey) return false;
  if ((link.target && link.target.toLowerCase() !== '_self') || link.download) return false;
  let to: URL;
  let from: URL;
  try {
    from = new URL(here);
    to = new URL(link.href, from);
  } catch {
    return false;
  }
  if (to.origin !== from.origin) return false;
  return to.pathname !== from.pathname || to.search !== from.search;
}
