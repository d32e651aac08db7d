import type { Handler } from 'htmlparser2';
import { boundedParser } from './bounded-parser';
import { collapseWhitespace, MainContentBuilder } from '../text/main-content';
import { ownCopy } from './own-copy';
import { baseHrefUrl, baseLeavesDocument, canonicalize, resolveReference, trimAsciiWhitespace, type CanonicalizeOptions, type QueryHandling, type ReferenceCache } from '../url';
import { decodeAttributeRefs, decodeTextRefs } from './char-refs';
import { extractCssLinks } from './css-links';
import { addImportMap, emptyImportMap, extractModuleLinks, mapsAnything, parseImportMap, type ResolvedImportMap } from './module-imports';
import { GetForm } from './html-forms';
import { BREAKING, CONTEXT_BLOCKS, ELEMENT_RULES, HIDDEN_TEXT, isManifestRel, linkRelKind, metaRefreshUrl } from './html-link-rules';
import { parseSrcset } from './srcset';
import type { ExtractedLink, LinkKind, MetaRobots } from './types';

/**
 * What the page's markup is made of, gathered while its links are extracted: element and attribute
 * names (lower case) and every attribute value (decoded, NUL-separated). The AAH uses it to rule
 * out every known application without building a DOM (worker/aah/markup-check.ts).
 */
export interface MarkupSummary {
  elementNames: Set<string>;
  attributeNames: Set<string>;
  attributeValues: string;
}

/** What one HTML page yields. */
export interface HtmlExtraction {
  links: ExtractedLink[];
  title: string;
  /** Visible text, whitespace collapsed (script, style and the like left out). */
  text: string;
  /** The main content's text (worker/text/main-content.ts), built in the same pass; '' with text off. */
  mainText: string;
  metaRobots: MetaRobots;
  /** The `<base href>` in effect at the end of the document, when there was one. */
  baseUrl?: string;
  markup: MarkupSummary;
  /**
   * The canonical URL of each reference as written (trimmed), null when it resolved to nothing;
   * empty when the page has a `<base href>`. A later pass over the same page takes it as
   * `options.resolved` rather than resolving the references again.
   */
  resolved: ReadonlyMap<string, string | null>;
  /** Its import maps, made absolute, when it has one that maps anything: the modules it loads resolve their bare specifiers through it. */
  importMap?: ResolvedImportMap;
  /** Links past `maxLinks` left out, each reference counted as written (one repeated counts each time); 0 when none. */
  linksLeftOut: number;
}

export interface HtmlExtractOptions {
  queryHandling?: QueryHandling;
  /** The page's encoding when its URL queries are not UTF-8 (queryEncodingOf); unset for UTF-8. */
  encoding?: string;
  /** Longest context kept around an anchor, in characters. Default 500. */
  maxContext?: number;
  /**
   * Collect the visible text, main content, anchor texts and link contexts (default true). Off,
   * links come with empty anchorText/context (an image's alt text still counts) and the texts are
   * empty: the crawl's own pass turns it off (focused analysis reads them on its thread), which
   * saves about a fifth of the parse.
   */
  text?: boolean;
  /** References an earlier pass over the same page resolved (its HtmlExtraction.resolved). */
  resolved?: ReadonlyMap<string, string | null>;
  /** The crawl's cache of root-relative references (worker/url/reference-cache.ts), made with the same queryHandling. */
  references?: ReferenceCache;
  /** Gather the MarkupSummary (default true); a pass that only reads text leaves it empty. */
  markup?: boolean;
  /**
   * A GET form is the URL a browser submits with its controls' default values (the ICD's
   * scope.submitGetForms); off (default), its action as written, as Heritrix takes it.
   */
  submitForms?: boolean;
  /**
   * The most links kept, the first in document order (the ICD's scope.maxOutLinksPerPage); the
   * references past them are counted (HtmlExtraction.linksLeftOut), not resolved nor kept: a page
   * of a million links took ~26 s and ~700 MB to extract whole, to follow its first 6,000. Default: all.
   */
  maxLinks?: number;
}

/**
 * The crawl's settings that decide what URLs a page's references become (the ICD's scope): every
 * pass over a page's HTML takes them, so each finds the URLs the crawl's own pass found.
 */
export type PageLinkSettings = Required<Pick<HtmlExtractOptions, 'queryHandling' | 'submitForms'>> & Pick<HtmlExtractOptions, 'maxLinks'>;

/** PageLinkSettings from the ICD's scope. */
export function pageLinkSettingsOf(scope: { queryHandling: QueryHandling; submitGetForms: boolean; maxOutLinksPerPage: number }): PageLinkSettings {
  return { queryHandling: scope.queryHandling, submitForms: scope.submitGetForms, maxLinks: scope.maxOutLinksPerPage };
}

interface Block {
  name: string;
  /** Index of the first text chunk inside the block, and the text length before it. */
  chunk: number;
  offset: number;
  /** Anchors inside the block, waiting for its text, each with its offset in the document text. */
  links: { link: ExtractedLink; offset: number }[];
}

/**
 * How many `<iframe srcdoc>` documents are read inside one another, and how much of each: a srcdoc
 * holding a srcdoc holding… is a page's markup read again at each level (escaped), so it is bounded.
 */
const MAX_SRCDOC_DEPTH = 3;
const MAX_SRCDOC_CHARS = 256 * 1024;

/** Where the part of `text` around `offset` starts and ends: at most `max` characters, cut at word boundaries. */
function windowAround(text: string, offset: number, max: number): [start: number, end: number] {
  if (text.length <= max) return [0, text.length];
  let start = Math.max(0, Math.min(offset - (max >> 1), text.length - max));
  let end = start + max;
  // Word boundaries are looked for inside the window only: in a block without spaces, a search
  // to the text's ends for each of its links made a page of 100,000 links take 17 s.
  if (start > 0) {
    let i = start;
    while (i < end && text.charCodeAt(i) !== 32) i++;
    if (i < end) start = i + 1;
  }
  if (end < text.length) {
    let i = end;
    while (i > start && text.charCodeAt(i) !== 32) i--;
    if (i > start) end = i;
  }
  return [start, end];
}

/**
 * Streams the page through htmlparser2's callbacks (no DOM) and collects links with their anchor
 * text and block context, the title, the visible text and the robots meta directives.
 */
class LinkCollector implements Partial<Handler> {
  readonly raw: ExtractedLink[] = [];
  private base: string;
  private baseSet = false;
  /** Whether the `<base href>` names another document, which an in-page anchor ("#x") then names too. */
  private fragmentsLeavePage = false;
  private readonly resolved = new Map<string, string | null>();
  /** Links added before any `<base href>`, with their references (resolveEarlyAgain); none once a base came. */
  private readonly early: ExtractedLink[] = [];
  private readonly earlyRefs: string[] = [];
  /** GET forms submitted as a browser would (submitForms) read before any `<base href>`, with their actions. */
  private readonly earlyForms: { form: GetForm; action: string }[] = [];
  /**
   * Links without a URL in `raw`: in-page anchors met before any base, which a late base may make
   * name another document, and links a late base made name nothing. Left out at the end.
   */
  private unresolved = 0;
  /** The URLs of the links kept, up to opts.maxLinks; references past them are only counted (linksLeftOut). */
  private readonly kept = new Set<string>();
  linksLeftOut = 0;
  private readonly chunks: string[] = [];
  private length = 0;
  private lastSpace = true;
  private hidden = 0;
  private svg = 0;
  /** How many srcdoc documents this one is inside (0: the page itself). */
  private srcdocDepth = 0;
  private titleText: string | null = null;
  private inTitle = false;
  private styleText: string | null = null;
  /** The text of an inline `<script type="module">` or `"importmap"` being read. */
  private scriptText: { type: 'module' | 'importmap'; text: string } | null = null;
  /** Inline modules, read at the end: their bare specifiers go through the page's import maps, wherever those come. */
  private readonly modules: string[] = [];
  private readonly importMap: ResolvedImportMap = emptyImportMap();
  /** The GET form being read, when inside one. */
  private form: GetForm | null = null;
  private anchor: { link: ExtractedLink | null; chunk: number; alt: string } | null = null;
  private readonly blocks: Block[] = [{ name: '#document', chunk: 0, offset: 0, links: [] }];
  readonly robots: MetaRobots = { noindex: false, nofollow: false };
  private readonly elementNames = new Set<string>();
  private readonly attributeNames = new Set<string>();
  private readonly attributeValues: string[] = [];
  /** Focused crawling reads the main content: built from this pass's events rather than a second parse. */
  readonly main: MainContentBuilder | null;
  /** How the page's references resolve: the crawl's query handling and the page's encoding. */
  private readonly urlOpts: CanonicalizeOptions;

  constructor(
    private readonly pageUrl: string,
    private readonly opts: Required<Omit<HtmlExtractOptions, 'resolved' | 'references' | 'encoding'>>,
    resolved?: ReadonlyMap<string, string | null>,
    private readonly references?: ReferenceCache,
    private readonly encoding?: string,
  ) {
    this.urlOpts = { queryHandling: opts.queryHandling, encoding };
    this.base = pageUrl;
    if (resolved) for (const [raw, url] of resolved) this.resolved.set(raw, url);
    this.main = opts.text ? new MainContentBuilder() : null;
  }

  private add(raw: string | undefined, kind: LinkKind, source: string, anchorText = ''): ExtractedLink | null {
    if (!raw) return null;
    const trimmed = trimAsciiWhitespace(raw);
    if (!trimmed) return null;
    // An in-page anchor leads nowhere new, unless a <base href> makes it name another document:
    // before any base, it waits without a URL for one that comes later (resolveEarlyAgain).
    const inPage = trimmed.startsWith('#') && !this.fragmentsLeavePage;
    if (inPage && this.baseSet) return null;
    if (!inPage && this.full(trimmed)) {
      this.linksLeftOut++;
      return null;
    }
    const url = inPage ? '' : this.resolve(trimmed);
    if (url === null) return null;
    if (inPage) this.unresolved++;
    else this.kept.add(url);
    const link: ExtractedLink = { url, kind, source, anchorText, context: '' };
    this.raw.push(link);
    if (!this.baseSet) {
      this.early.push(link);
      this.earlyRefs.push(trimmed);
    }
    return link;
  }

  /** Whether the links kept are opts.maxLinks and `ref` is none of theirs as far as known without resolving it. */
  private full(ref: string): boolean {
    if (this.kept.size < this.opts.maxLinks) return false;
    const known = this.resolved.get(ref);
    return !known || !this.kept.has(known);
  }

  /** The canonical URL of a reference (trimmed) against the current base. */
  private resolve(ref: string): string | null {
    // Pages repeat their links (menus, "read more"): canonicalise each spelling once.
    let url = this.resolved.get(ref);
    if (url === undefined) {
      url = this.references ? this.references.resolve(ref, this.base, this.encoding) : resolveReference(ref, this.base, this.urlOpts);
      this.resolved.set(ref, url);
    }
    return url;
  }

  /**
   * The links met before a `<base href>` that comes late (in the body), resolved again against it:
   * the document's first base applies to all its links in a browser, those above it included
   * (in-page anchors and forms too: they are resolved when followed). A requisite keeps its first
   * URL too: Chromium loads it before it parses the base, then again. CSS read before the base (a
   * style attribute, a `<style>` block) keeps the page URL: Chromium resolves it as it parses it,
   * and requests it there only, even when a rule applies after the base came.
   */
  private resolveEarlyAgain(): void {
    for (let i = 0; i < this.early.length; i++) {
      const link = this.early[i];
      const ref = this.earlyRefs[i];
      // An in-page anchor stays one when the base names this page.
      const url = ref.startsWith('#') && !this.fragmentsLeavePage ? null : this.resolve(ref);
      if (url === link.url) continue;
      if (link.kind === 'requisite' && link.url) {
        if (url) this.raw.push({ ...link, url });
        continue;
      }
      if (!link.url) this.unresolved--;
      link.url = url ?? '';
      if (!url) this.unresolved++;
    }
    // A form submitted as a browser does: its action against the base, then its query again
    // (closeForm gives the query to one still open).
    for (const { form, action } of this.earlyForms) {
      const url = this.resolve(action);
      if (url) form.link.url = url;
      else {
        form.link.url = '';
        this.unresolved++;
      }
      if (url && form !== this.form) form.finish(this.urlOpts);
    }
  }

  /** Appends visible text, decoded and whitespace-collapsed already. */
  private appendText(collapsed: string): void {
    let t = collapsed;
    if (this.lastSpace && t.charCodeAt(0) === 32) t = t.slice(1);
    if (!t) return;
    this.chunks.push(t);
    this.length += t.length;
    this.lastSpace = t.charCodeAt(t.length - 1) === 32;
  }

  private breakText(): void {
    if (!this.lastSpace && this.opts.text) this.appendText(' ');
  }

  onopentag(name: string, attribs: Record<string, string>): void {
    const { markup } = this.opts;
    if (markup) this.elementNames.add(name);
    for (const a in attribs) {
      attribs[a] = decodeAttributeRefs(attribs[a]);
      if (!markup) continue;
      this.attributeNames.add(a);
      this.attributeValues.push(attribs[a]);
    }
    this.main?.onopentag(name, attribs);
    if (BREAKING.has(name)) this.breakText();
    if (name === 'svg') this.svg++;
    if (HIDDEN_TEXT.has(name)) this.hidden++;
    if (name === 'title' && this.svg === 0 && this.titleText === null) this.inTitle = true;
    if (name === 'style') this.styleText = '';
    if (name === 'script' && attribs.src === undefined) {
      const type = (attribs.type ?? '').trim().toLowerCase();
      if (type === 'module' || type === 'importmap') this.scriptText = { type, text: '' };
    }
    if (CONTEXT_BLOCKS.has(name)) this.blocks.push({ name, chunk: this.chunks.length, offset: this.length, links: [] });
    if (attribs.style) {
      // A style attribute's URLs are UTF-8 whatever the page's encoding, in Chromium too.
      for (const l of extractCssLinks(attribs.style, this.base, this.opts)) this.raw.push({ ...l, source: `${name}@style` });
    }

    switch (name) {
      case 'base':
        // Only the first <base href> counts (HTML standard); it is resolved against the page URL.
        if (!this.baseSet && attribs.href) {
          const base = baseHrefUrl(attribs.href, this.base, this.encoding);
          this.baseSet = true;
          if (base) {
            this.base = base;
            this.fragmentsLeavePage = baseLeavesDocument(base, this.pageUrl, this.opts);
            this.resolved.clear();
            if (this.early.length > 0 || this.earlyForms.length > 0) this.resolveEarlyAgain();
          }
          this.early.length = 0;
          this.earlyRefs.length = 0;
          this.earlyForms.length = 0;
        }
        return;
      case 'a':
      case 'area': {
        if (this.anchor) this.closeAnchor(); // <a> inside <a> is invalid: the first one ends here
        // An SVG link may still use the older xlink:href, read when it has no href (SVG 2).
        const attr = this.svg > 0 && attribs.href === undefined && attribs['xlink:href'] !== undefined ? 'xlink:href' : 'href';
        const link = this.add(attribs[attr], 'navigation', `${name}@${attr}`, name === 'area' ? (attribs.alt ?? '').trim() : '');
        if (link && /\bnofollow\b/i.test(attribs.rel ?? '')) link.nofollow = true;
        if (link) this.blocks[this.blocks.length - 1].links.push({ link, offset: this.length });
        if (name === 'a') this.anchor = { link, chunk: this.chunks.length, alt: '' };
        return;
      }
      case 'link': {
        const kind = linkRelKind(attribs.rel, attribs.type);
        const link = kind ? this.add(attribs.href, kind, 'link@href') : null;
        // Read as a manifest whatever type it is served with (a .webmanifest often comes as application/octet-stream).
        if (link?.kind === 'requisite' && isManifestRel(attribs.rel)) link.role = 'manifest';
        // A preloaded responsive image: the browser picks from imagesrcset, href being only the fallback (or absent).
        if (kind === 'requisite' && attribs.imagesrcset) for (const u of parseSrcset(attribs.imagesrcset)) this.add(u, kind, 'link@imagesrcset');
        return;
      }
      case 'meta':
        this.meta(attribs);
        return;
      case 'form':
        this.openForm(attribs);
        return;
      case 'img':
        if (this.anchor && attribs.alt) this.anchor.alt += ` ${attribs.alt}`;
        break;
      case 'iframe':
        if (attribs.srcdoc) this.srcdoc(attribs.srcdoc);
        break;
    }
    this.form?.onopentag(name, attribs);
    const rules = ELEMENT_RULES.get(name);
    if (!rules) return;
    const alt = name === 'img' ? (attribs.alt ?? '').trim() : '';
    for (const rule of rules) {
      const value = attribs[rule.attr];
      if (!value || (rule.inSvg && this.svg === 0) || (rule.unless && attribs[rule.unless] !== undefined)) continue;
      if (rule.srcset) for (const u of parseSrcset(value)) this.add(u, rule.kind, `${name}@${rule.attr}`, alt);
      else this.add(value, rule.kind, `${name}@${rule.attr}`, alt);
    }
  }

  /**
   * The links of an `<iframe srcdoc>`'s document (the attribute decoded already), read as a page's
   * and resolved against this document's base URL, which an about:srcdoc document inherits: its
   * images and stylesheets are the frame's requisites, its anchors links.
   */
  private srcdoc(html: string): void {
    if (this.srcdocDepth >= MAX_SRCDOC_DEPTH) return;
    const inner = new LinkCollector(this.base, { ...this.opts, markup: false }, undefined, this.references, this.encoding);
    inner.srcdocDepth = this.srcdocDepth + 1;
    boundedParser(inner, { decodeEntities: false }).end(html.length > MAX_SRCDOC_CHARS ? html.slice(0, MAX_SRCDOC_CHARS) : html);
    for (const link of inner.raw) this.raw.push(link);
    this.linksLeftOut += inner.linksLeftOut;
  }

  /**
   * Only GET forms can be crawled. With submitForms, the URL is what a browser submits (GetForm),
   * its action's, or without one the page's own (not the base's), with the form data set for its
   * query; without, the action as written (none without one), as Heritrix takes it: submitting the
   * forms of every page fetched each page again with a sort order, and a site search per page.
   */
  private openForm(attribs: Record<string, string>): void {
    // An invalid or empty method is GET (HTML's missing and invalid value default), as browsers send it.
    const method = trimAsciiWhitespace(attribs.method ?? 'get').toLowerCase();
    if (method === 'post' || method === 'dialog' || this.form) return;
    if (!this.opts.submitForms) {
      const link = this.add(attribs.action, 'form', 'form@action');
      if (link) this.blocks[this.blocks.length - 1].links.push({ link, offset: this.length });
      return;
    }
    const action = trimAsciiWhitespace(attribs.action ?? '');
    const url = action ? this.resolve(action) : canonicalize(this.pageUrl, undefined, this.urlOpts);
    if (!url) return;
    const link: ExtractedLink = { url, kind: 'form', source: 'form@action', anchorText: '', context: '' };
    this.raw.push(link);
    this.blocks[this.blocks.length - 1].links.push({ link, offset: this.length });
    this.form = new GetForm(link, this.encoding);
    if (action && !this.baseSet) this.earlyForms.push({ form: this.form, action });
  }

  private closeForm(): void {
    this.form?.finish(this.urlOpts);
    this.form = null;
  }

  private meta(attribs: Record<string, string>): void {
    const equiv = (attribs['http-equiv'] ?? '').toLowerCase();
    if (equiv === 'refresh' && attribs.content) this.add(metaRefreshUrl(attribs.content) ?? undefined, 'redirect', 'meta@refresh');
    if ((attribs.name ?? '').toLowerCase() === 'robots' && attribs.content) {
      const c = attribs.content.toLowerCase();
      if (/\b(noindex|none)\b/.test(c)) this.robots.noindex = true;
      if (/\b(nofollow|none)\b/.test(c)) this.robots.nofollow = true;
    }
  }

  ontext(data: string): void {
    this.form?.ontext(data);
    // <style> is raw text (no character references); title and body text are decoded here.
    if (this.inTitle) {
      this.main?.ontext(data);
      this.titleText = (this.titleText ?? '') + decodeTextRefs(data);
    } else if (this.styleText !== null) this.styleText += data;
    else if (this.scriptText !== null) this.scriptText.text += data;
    else if (this.hidden === 0 && this.opts.text) {
      // The main content takes the same decoded, collapsed text: hidden text is never main content.
      const collapsed = collapseWhitespace(decodeTextRefs(data));
      this.main?.ontextCollapsed(collapsed);
      this.appendText(collapsed);
    }
  }

  private closeAnchor(): void {
    const a = this.anchor!;
    this.anchor = null;
    if (!a.link) return;
    const text = a.chunk < this.chunks.length ? this.chunks.slice(a.chunk).join('').trim() : '';
    a.link.anchorText = text || a.alt.trim();
  }

  private closeBlock(block: Block): void {
    if (block.links.length === 0 || !this.opts.text) return;
    const text = this.chunks.slice(block.chunk).join('');
    // Links with the same window share one string: focused analysis vectorises each distinct context
    // once, and a string already looked up is not hashed again.
    const windows = new Map<number, string>();
    for (const { link, offset } of block.links) {
      const [start, end] = windowAround(text, offset - block.offset, this.opts.maxContext);
      const key = start * (text.length + 1) + end;
      let context = windows.get(key);
      if (context === undefined) windows.set(key, (context = text.slice(start, end).trim()));
      link.context = context;
    }
  }

  onclosetag(name: string): void {
    this.main?.onclosetag(name);
    if (name === 'form') this.closeForm();
    else this.form?.onclosetag(name);
    if (name === 'a' && this.anchor) this.closeAnchor();
    if (name === 'title' && this.inTitle) {
      this.inTitle = false;
      this.titleText ??= '';
    }
    if (name === 'style' && this.styleText !== null) {
      for (const l of extractCssLinks(this.styleText, this.base, { ...this.urlOpts, sourcePrefix: 'style' })) this.raw.push(l);
      this.styleText = null;
    }
    if (name === 'script' && this.scriptText !== null) this.closeScript(this.scriptText);
    if (HIDDEN_TEXT.has(name) && this.hidden > 0) this.hidden--;
    if (name === 'svg' && this.svg > 0) this.svg--;
    if (CONTEXT_BLOCKS.has(name)) {
      for (let i = this.blocks.length - 1; i > 0; i--) {
        if (this.blocks[i].name !== name) continue;
        // Blocks left open inside it (malformed HTML) end with it.
        while (this.blocks.length > i) this.closeBlock(this.blocks.pop()!);
        break;
      }
    }
    if (BREAKING.has(name)) this.breakText();
  }

  onend(): void {
    this.closeForm();
    if (this.anchor) this.closeAnchor();
    if (this.styleText !== null) this.onclosetag('style');
    if (this.scriptText !== null) this.closeScript(this.scriptText);
    for (const text of this.modules) {
      for (const l of extractModuleLinks(text, this.base, { ...this.opts, sourcePrefix: 'script', importMap: this.importMap })) this.raw.push(l);
    }
    while (this.blocks.length > 0) this.closeBlock(this.blocks.pop()!);
    if (this.unresolved > 0) {
      const kept = this.raw.filter((l) => l.url !== '');
      this.raw.length = 0;
      this.raw.push(...kept);
    }
  }

  /** An import map's addresses are the page's requisites at once; a module waits for the end (`modules`). */
  private closeScript(script: { type: 'module' | 'importmap'; text: string }): void {
    this.scriptText = null;
    if (script.type === 'module') {
      this.modules.push(script.text);
      return;
    }
    const map = parseImportMap(script.text);
    if (!map) return;
    for (const address of map.addresses) this.add(address, 'requisite', 'script@importmap');
    // Several maps merge, the first to map a specifier keeping it (HTML standard, "merge existing and new import maps").
    addImportMap(this.importMap, map, this.base);
  }

  /** The document's import maps, when they map anything. */
  get documentImportMap(): ResolvedImportMap | undefined {
    return mapsAnything(this.importMap) ? this.importMap : undefined;
  }

  get markup(): MarkupSummary {
    return { elementNames: this.elementNames, attributeNames: this.attributeNames, attributeValues: this.attributeValues.join('\0') };
  }

  get maxLinks(): number {
    return this.opts.maxLinks;
  }

  /** Copied out of the page's text, which it would otherwise keep alive (own-copy.ts). */
  get title(): string {
    return ownCopy(collapseWhitespace(this.titleText ?? '').trim());
  }

  get text(): string {
    return this.chunks.join('').trim();
  }

  get baseUrl(): string | undefined {
    return this.baseSet ? this.base : undefined;
  }

  /** What the references resolved to; empty after a `<base href>` (those before it resolved differently). */
  get resolutions(): ReadonlyMap<string, string | null> {
    return this.baseSet ? new Map() : this.resolved;
  }
}

/**
 * Merges repeated URLs: the first occurrence stays, with the longest anchor text seen. A URL the
 * page also uses as a requisite (`<a href="x.jpg"><img src="x.jpg"></a>`) is a requisite, with
 * that occurrence's source: the page needs it to replay whole, wherever the scope ends.
 */
export function dedupeLinks(links: readonly ExtractedLink[]): ExtractedLink[] {
  const byUrl = new Map<string, ExtractedLink>();
  for (const link of links) {
    const first = byUrl.get(link.url);
    if (!first) {
      byUrl.set(link.url, link);
      continue;
    }
    if (link.kind === 'requisite' && first.kind !== 'requisite') {
      first.kind = 'requisite';
      first.source = link.source;
      if (link.role) first.role = link.role;
    }
    if (link.anchorText.length > first.anchorText.length) {
      first.anchorText = link.anchorText;
      if (!first.context) first.context = link.context;
    }
  }
  return [...byUrl.values()];
}

/**
 * Links, title, visible text and robots directives of an HTML page. Never throws on malformed
 * markup: htmlparser2 recovers from anything, and so does the collector.
 */
export function extractHtml(html: string, pageUrl: string, options: HtmlExtractOptions = {}): HtmlExtraction {
  const collector = new LinkCollector(
    pageUrl,
    {
      queryHandling: options.queryHandling ?? 'keep', maxContext: options.maxContext ?? 500, text: options.text ?? true, markup: options.markup ?? true,
      submitForms: options.submitForms ?? false, maxLinks: options.maxLinks ?? Infinity,
    },
    options.resolved,
    options.references,
    options.encoding,
  );
  // The tokenizer skips to the next '<' only when it leaves character references alone, which
  // halves its time on text-heavy pages; the few values and texts holding a '&' are decoded here.
  const parser = boundedParser(collector, { decodeEntities: false });
  parser.end(html);
  let links = dedupeLinks(collector.raw);
  // Links added past the reference count (from CSS, srcdoc frames, modules) are cut here.
  let linksLeftOut = collector.linksLeftOut;
  if (links.length > collector.maxLinks) {
    linksLeftOut += links.length - collector.maxLinks;
    links = links.slice(0, collector.maxLinks);
  }
  if (collector.robots.nofollow) links = links.map((l) => ({ ...l, nofollow: true }));
  const mainText = collector.main ? collector.main.result().text : '';
  return {
    links, title: collector.title, text: collector.text, mainText, metaRobots: { ...collector.robots }, baseUrl: collector.baseUrl, markup: collector.markup,
    resolved: collector.resolutions, linksLeftOut,
    ...(collector.documentImportMap ? { importMap: collector.documentImportMap } : {}),
  };
}
