import { boundedParser } from '../extract/bounded-parser';
import { decodeAttributeRefs, decodeTextRefs } from '../extract/char-refs';

/**
 * Main-content extraction: what a page says, without its navigation, header, footer, sidebars,
 * forms, ads and cookie banners. Boilerplate is removed twice over: by element (tag names and
 * class/id words), then by density — link-heavy blocks go, and only blocks whose container holds
 * a good share of the page's running text stay.
 *
 * It is a streaming builder fed the HTML parser's events, so the link extractor builds it in its
 * own pass when it collects text; extractMainContent runs it alone.
 */

/** The main content of a page. */
export interface MainContent {
  title: string;
  /** Text blocks (paragraphs, list items, headings…) in document order. */
  paragraphs: string[];
  /** The paragraphs joined by blank lines. */
  text: string;
}

/** Tuning of the main-content selection. */
export interface MainContentOptions {
  /** Blocks whose share of link text is above this are dropped (default 0.5). */
  maxLinkDensity?: number;
  /** A container is kept when its text is at least this share of the densest container's (default 0.25). */
  minContainerShare?: number;
}

const DROP_TAGS = new Set([
  'nav', 'header', 'footer', 'aside', 'form', 'script', 'style', 'noscript', 'template', 'iframe',
  'svg', 'button', 'select', 'textarea', 'menu', 'dialog', 'object', 'canvas',
]);
const BLOCK_TAGS = new Set([
  'p', 'div', 'li', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'section',
  'article', 'main', 'dd', 'dt', 'figcaption', 'caption', 'body', 'ul', 'ol', 'table', 'tr', 'dl',
]);
/** Elements never dropped for their class or id (a `<body class="has-sidebar">` is still the page). */
const NEVER_DROPPED = new Set(['html', 'body', 'main', 'article']);
/** Class/id words of boilerplate, matched as whole words of the attribute (split on - _ space). */
const BOILERPLATE_WORD =
  /^(nav|navbar|navigation|menu|menubar|footer|sidebar|side|ad|ads|advert|advertisement|adsbox|banner|cookie|cookies|consent|breadcrumb|breadcrumbs|share|social|promo|sponsored|related|comments?-?form|popup|newsletter|masthead|toolbar|pagination|skip)$/;

/**
 * Collapses each run of ASCII whitespace to one space, as HTML renders text (a no-break space is
 * kept). Single spaces are left alone: text is mostly words between single spaces, and replacing
 * each of them costs more than the rest of the work.
 */
const HTML_WHITESPACE_TO_COLLAPSE = /[ \t\n\r\f]{2,}|[\t\n\r\f]/g;
export const collapseWhitespace = (s: string): string => (mayCollapse(s) ? s.replace(HTML_WHITESPACE_TO_COLLAPSE, ' ') : s);

/**
 * False when `s` has nothing to collapse. Most of a page's text needs nothing, and five native
 * searches find that sooner than the regex does (1.3 against 2.1 ns per character).
 */
const mayCollapse = (s: string): boolean =>
  s.includes('\n') || s.includes('  ') || s.includes('\t') || s.includes('\r') || s.includes('\f');

/** Attribute values already decoded. */
function isBoilerplateByAttr(attribs: Record<string, string>): boolean {
  if (attribs['aria-hidden'] === 'true') return true;
  const { class: cls, id, role } = attribs;
  if (cls === undefined && id === undefined && role === undefined) return false; // most elements: nothing to split
  const words = `${cls ?? ''} ${id ?? ''} ${role ?? ''}`.toLowerCase().split(/[\s_-]+/);
  return words.some((w) => w.length > 0 && BOILERPLATE_WORD.test(w));
}

interface Block {
  /** Id of the nearest enclosing block element's contents (0: the document). */
  container: number;
  /** Whitespace-collapsed texts whose concatenation is collapsed too (see append). */
  parts: string[];
  endsWithSpace: boolean;
  chars: number;
  linkChars: number;
}

const newBlock = (container: number): Block => ({ container, parts: [], endsWithSpace: false, chars: 0, linkChars: 0 });

/** Appends a collapsed text, without a second space where the block already ends with one. */
function append(block: Block, text: string): void {
  const t = block.endsWithSpace && text.charCodeAt(0) === 32 ? text.slice(1) : text;
  if (!t) return;
  block.parts.push(t);
  block.endsWithSpace = t.charCodeAt(t.length - 1) === 32;
}

/** What an open element changed, restored when it closes. */
interface OpenElement {
  name: string;
  block: Block;
  container: number;
  dropped: boolean;
  inLink: boolean;
  inTitle: boolean;
}

/**
 * Builds the main content from parser events: `open` with decoded attribute values, `text` with
 * raw text (character references are decoded here), `close`. Text directly inside a block element
 * forms one block; a block's container is its nearest enclosing block element.
 */
export class MainContentBuilder {
  private readonly blocks: Block[];
  private readonly open: OpenElement[] = [];
  private block: Block;
  private container = 0;
  private nextId = 0;
  private dropped = false;
  private inLink = false;
  private inTitle = false;
  private titleText = '';
  private title = '';
  /** Text since the last tag: a DOM would hold it as one text node. */
  private pending = '';
  /** The same, given decoded and collapsed already (ontextCollapsed). */
  private pendingCollapsed = '';

  constructor(private readonly options: MainContentOptions = {}) {
    this.block = newBlock(-1);
    this.blocks = [this.block];
  }

  onopentag(name: string, attribs: Record<string, string>): void {
    this.flush();
    this.open.push({ name, block: this.block, container: this.container, dropped: this.dropped, inLink: this.inLink, inTitle: this.inTitle });
    if (this.dropped) return;
    if (name === 'title' && !this.title) {
      // The title is kept apart; nothing inside it is running text.
      this.inTitle = true;
      this.dropped = true;
      this.titleText = '';
      return;
    }
    if (DROP_TAGS.has(name) || (!NEVER_DROPPED.has(name) && isBoilerplateByAttr(attribs))) {
      this.dropped = true;
      return;
    }
    if (name === 'br') {
      append(this.block, ' ');
      return;
    }
    if (BLOCK_TAGS.has(name)) {
      this.block = newBlock(this.container);
      this.blocks.push(this.block);
      this.container = ++this.nextId;
    }
    if (name === 'a') this.inLink = true;
  }

  ontext(data: string): void {
    this.pending += data;
  }

  /** Text the caller decoded and collapsed (collapseWhitespace) already: the link extractor's pass does both for its own text. */
  ontextCollapsed(text: string): void {
    const p = this.pendingCollapsed;
    this.pendingCollapsed = p.charCodeAt(p.length - 1) === 32 && text.charCodeAt(0) === 32 ? p + text.slice(1) : p + text;
  }

  onclosetag(name: string): void {
    let i = this.open.length - 1;
    while (i >= 0 && this.open[i].name !== name) i--;
    if (i < 0) return; // an end tag nothing opened
    this.flush();
    const el = this.open[i];
    this.open.length = i;
    if (this.inTitle && !el.inTitle) this.title = collapseWhitespace(decodeTextRefs(this.titleText)).trim();
    this.block = el.block;
    this.container = el.container;
    this.dropped = el.dropped;
    this.inLink = el.inLink;
    this.inTitle = el.inTitle;
  }

  private flush(): void {
    const raw = this.pending;
    const collapsed = this.pendingCollapsed;
    if (!raw && !collapsed) return;
    this.pending = '';
    this.pendingCollapsed = '';
    if (this.inTitle) this.titleText += raw;
    if (this.dropped) return;
    const text = raw ? collapseWhitespace(decodeTextRefs(raw)) + collapsed : collapsed;
    const n = text.trim().length;
    if (n === 0) return;
    append(this.block, text);
    this.block.chars += n;
    if (this.inLink) this.block.linkChars += n;
  }

  /** The main content of what was fed so far. */
  result(): MainContent {
    this.flush();
    const maxLinkDensity = this.options.maxLinkDensity ?? 0.5;
    const minShare = this.options.minContainerShare ?? 0.25;
    const kept = this.blocks.filter((b) => b.chars > 0 && b.linkChars / b.chars <= maxLinkDensity);
    const byContainer = new Map<number, number>();
    for (const b of kept) byContainer.set(b.container, (byContainer.get(b.container) ?? 0) + b.chars - b.linkChars);
    let best = 0;
    for (const chars of byContainer.values()) if (chars > best) best = chars;
    const paragraphs: string[] = [];
    for (const b of kept) {
      if ((byContainer.get(b.container) ?? 0) < best * minShare) continue;
      const p = b.parts.join('').trim();
      if (p) paragraphs.push(p);
    }
    return { title: this.title, paragraphs, text: paragraphs.join('\n\n') };
  }
}

/** Extracts the title and main text of an HTML page (a parse of its own). */
export function extractMainContent(html: string, options: MainContentOptions = {}): MainContent {
  const builder = new MainContentBuilder(options);
  // Parsed without decoding character references (the tokenizer then skips text quickly); the
  // builder decodes the texts, and attribute values are decoded here.
  const parser = boundedParser(
    {
      onopentag: (name, attribs) => {
        for (const a in attribs) attribs[a] = decodeAttributeRefs(attribs[a]);
        builder.onopentag(name, attribs);
      },
      ontext: (data) => builder.ontext(data),
      onclosetag: (name) => builder.onclosetag(name),
    },
    { decodeEntities: false },
  );
  parser.end(html);
  return builder.result();
}
