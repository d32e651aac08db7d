import { MAX_EMBED_HOPS } from '../url';

/** Redirects followed in a row from a capture at most: the crawl itself gives up on longer chains. */
export const MAX_REDIRECT_HOPS = 20;

/** A capture as the walk sees it (a Capture row's columns). */
export interface WalkedCapture {
  id: number;
  url: string;
  status: number;
  mime: string | null;
  fetchedAt: string;
  recordType: string;
  payloadDigest: string | null;
  warcRecordId: string;
}

/** Where the walk reads the crawl: its database and WARC files, or literal fixtures in tests. */
export interface CrawlReader<C extends WalkedCapture> {
  /**
   * The crawl's capture of `url` (as written in the crawl: canonicalised here) that goes with one
   * made at `near`: the first at or after it, else the last before; undefined when none.
   */
  captureNear(url: string, near: string): C | undefined;
  /** The Location of a redirect capture, absolute (resolved against its URL); null when it has none. */
  locationOf(capture: C): Promise<string | null>;
  /** What a capture embeds (its `E` out-links), absolute. */
  embedsOf(capture: C): Promise<Embed[]>;
}

/** A URL a capture embeds; `part` when it is a part of it (a stylesheet's `@import`, a module's import: isImportSource), which counts no embed hop. */
export interface Embed {
  url: string;
  part: boolean;
}

/** What the walk adds to a selection. */
export interface WalkRules<C extends WalkedCapture> {
  /** Whether the selected pages' requisites are added (CollectionSelection.requisites). */
  requisites: boolean;
  /** Whether a requisite found may be added (the selection's MIME filter, when it has one). */
  admitsRequisite: (capture: C) => boolean;
}

interface Step<C> {
  capture: C;
  /** Redirects in a row that led to it. */
  redirects: number;
  /** Whether it came in as a requisite (or a requisite's redirect): the MIME filter judges it. */
  requisite: boolean;
}

/** A redirect to follow: a 304 is a page not modified (a revisit of it), not a move. */
const isRedirect = (c: WalkedCapture) => c.status >= 300 && c.status < 400 && c.status !== 304;
/** A stylesheet or a script, whose imports are parts of it (read even at the last embed hop). */
const mayHaveParts = (c: WalkedCapture) => /css|javascript|ecmascript/i.test(c.mime ?? '');
/** A page whose embeds replay needs: a 2xx, or a 304 revisit (whose payload is the earlier response's). */
const mayEmbed = (c: WalkedCapture) => (c.status >= 200 && c.status < 300) || c.status === 304;

/**
 * The captures a collection holds besides its selected ones (`selected`, those that may lead
 * elsewhere; `held`, the WARC record ids of all of them), in the order found: those the
 * redirects lead to, hop by hop to the end of a chain (MAX_REDIRECT_HOPS), whatever the filters
 * (a selected `/old/` page that moved replays as where it went); and, with `rules.requisites`, what
 * the pages embed (images, stylesheets, scripts, fonts, frames, as their out-links record lists
 * them), what those embed in turn, up to MAX_EMBED_HOPS embed hops from a page (as the crawl
 * fetched them: a stylesheet's images, an iframe's stylesheet's images), and where they redirect.
 * A page a redirect leads to is a page: its requisites count from it. Walked level by level of embed
 * hops, so a capture is reached first by its shortest way. An aborted `signal` stops it, throwing
 * its reason. `onProgress` hears walkedShare after each capture walked.
 */
export async function walkCollection<C extends WalkedCapture>(selected: readonly C[], crawl: CrawlReader<C>, rules: WalkRules<C>, held: ReadonlySet<string>, signal?: AbortSignal, onProgress?: (fraction: number) => void): Promise<C[]> {
  const taken = new Set([...held, ...selected.map((c) => c.warcRecordId)]);
  const added: C[] = [];
  let level: Step<C>[] = selected.map((capture) => ({ capture, redirects: 0, requisite: false }));
  let walked = 0;
  let share = 0;
  for (let embeds = 0; level.length; embeds++) {
    const next: Step<C>[] = [];
    const take = (capture: C | undefined, step: Step<C>, into: Step<C>[]) => {
      if (!capture || taken.has(capture.warcRecordId)) return;
      if (step.requisite && !rules.admitsRequisite(capture)) return;
      taken.add(capture.warcRecordId);
      added.push(capture);
      into.push(step);
    };
    // A redirect's target is on the same level, so this level grows while it is walked.
    for (let i = 0; i < level.length; i++) {
      signal?.throwIfAborted();
      const { capture, redirects, requisite } = level[i]!;
      if (isRedirect(capture)) {
        // A chain longer than the crawl follows is not followed further.
        const location = redirects < MAX_REDIRECT_HOPS ? await crawl.locationOf(capture) : null;
        const target = location === null ? undefined : crawl.captureNear(location, capture.fetchedAt);
        if (target) take(target, { capture: target, redirects: redirects + 1, requisite }, level);
      } else if (rules.requisites && mayEmbed(capture) && (embeds < MAX_EMBED_HOPS || mayHaveParts(capture))) {
        for (const { url, part } of await crawl.embedsOf(capture)) {
          if (!part && embeds >= MAX_EMBED_HOPS) continue;
          const found = crawl.captureNear(url, capture.fetchedAt);
          // A part (an @import-ed sheet, an imported module) is on this level, as the crawl counted it.
          if (found) take(found, { capture: found, redirects: 0, requisite: true }, part ? level : next);
        }
      }
      share = walkedShare(share, ++walked, level.length - i - 1 + next.length);
      onProgress?.(share);
    }
    level = next;
  }
  return added;
}

/**
 * The walk's progress 0..1 after `walked` captures, `toWalk` known to be still ahead (the rest of this
 * level and the next found so far): how many captures the walk reaches is not known until it ends
 * (requisites are found as pages are read), so this is the share walked of those known, never below
 * `before` (the last share, as the captures found raise the count), and 1 only when none is ahead.
 */
export function walkedShare(before: number, walked: number, toWalk: number): number {
  return Math.max(before, walked / (walked + toWalk));
}
