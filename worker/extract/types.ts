/** What a link is for: decides scope allowances and how the frontier treats it. */
export type LinkKind = 'navigation' | 'requisite' | 'redirect' | 'sitemap' | 'feed' | 'form';

/** One out-link found in a response. */
export interface ExtractedLink {
  /** Canonical absolute http(s) URL. */
  url: string;
  kind: LinkKind;
  /** Where it was found: `tag@attribute` ('a@href', 'img@srcset'), 'css@import', 'header@location'… */
  source: string;
  /** Text of the anchor (or an image's alt text); '' when there is none. */
  anchorText: string;
  /** Text of the block around an anchor (paragraph, list item, cell…), trimmed, at most ~500 chars. */
  context: string;
  /**
   * What a requisite is beyond that, kept as its frontier kind (url/scope.ts): `import`, a part of the
   * requisite it was found in (a stylesheet's `@import`, a module's import, read from that stylesheet
   * or module), which counts no embed hop of its own; `manifest`, a web app manifest (`<link
   * rel=manifest>`), read as one whatever its type.
   */
  role?: 'import' | 'manifest';
  /** The page or the link asked robots not to follow it (meta robots, rel=nofollow). Marked, not dropped. */
  nofollow?: boolean;
}

/** Robots directives from `<meta name=robots>` and the X-Robots-Tag header. */
export interface MetaRobots {
  noindex: boolean;
  nofollow: boolean;
}

/** How query strings of extracted links are canonicalised (the ICD's `scope.queryHandling`). */
export type { QueryHandling } from '../url';
