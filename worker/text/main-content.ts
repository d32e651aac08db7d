import { parseDocument } from 'htmlparser2';
import { decodeAttributeRefs, decodeTextRefs } from '../extract/char-refs';

/**
 * Main-content extraction: what a page says, without its navigation, header, footer, sidebars,
 * forms, ads and cookie banners. Boilerplate is removed twice over: by element (tag names and
 * class/id words), then by density — link-heavy blocks go, and only blocks whose container holds
 * a good share of the page's running text stay.
 */

/** The main content of a page. */
export interface MainContent {
  title: string;
  /** Text blocks (paragraphs, list items, headings…) in document order. */
  paragraphs: string[];
  /** The paragraphs joined by blank lines. */
  text: string;
}

/** Tuning of {@link extractMainContent}. */
export interface MainContentOptions {
  /** Blocks whose share of link text is above this are dropped (default 0.5). */
  maxLinkDensity?: number;
  /** A container is kept when its text is at least this share of the densest container's (default 0.25). */
  minContainerShare?: number;
}

interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
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

function isBoilerplateByAttr(node: DomNode): boolean {
  const words = decodeAttributeRefs(`${node.attribs?.class ?? ''} ${node.attribs?.id ?? ''} ${node.attribs?.role ?? ''}`)
    .toLowerCase()
    .split(/[\s_-]+/);
  return words.some((w) => w.length > 0 && BOILERPLATE_WORD.test(w)) || node.attribs?.['aria-hidden'] === 'true';
}

interface Block {
  container: number;
  parts: string[];
  chars: number;
  linkChars: number;
}

/** Extracts the title and main text of an HTML page. */
export function extractMainContent(html: string, options: MainContentOptions = {}): MainContent {
  const maxLinkDensity = options.maxLinkDensity ?? 0.5;
  const minShare = options.minContainerShare ?? 0.25;
  // Parsed without decoding character references (the tokenizer then skips text quickly); the
  // texts and attribute values read below decode their own.
  const doc = parseDocument(html, { decodeEntities: false }) as unknown as DomNode;
  const blocks: Block[] = [];
  let title = '';
  let nextId = 0;

  function visit(node: DomNode, block: Block, containerId: number, inLink: boolean): void {
    if (node.type === 'text') {
      const text = decodeTextRefs(node.data ?? '').replace(/\s+/g, ' ');
      if (text.trim()) {
        block.parts.push(text);
        const n = text.trim().length;
        block.chars += n;
        if (inLink) block.linkChars += n;
      }
      return;
    }
    if (node.type === 'comment' || node.type === 'directive' || node.type === 'cdata') return;
    const name = node.name?.toLowerCase();
    if (name === 'title' && !title) {
      title = decodeTextRefs(collectText(node)).replace(/\s+/g, ' ').trim();
      return;
    }
    if (name && (DROP_TAGS.has(name) || (!NEVER_DROPPED.has(name) && isBoilerplateByAttr(node)))) return;
    if (name === 'br') {
      block.parts.push(' ');
      return;
    }
    let current = block;
    let childContainer = containerId;
    if (name && BLOCK_TAGS.has(name)) {
      // Text directly inside this element forms one block; its sibling blocks share the parent.
      current = { container: containerId, parts: [], chars: 0, linkChars: 0 };
      blocks.push(current);
      childContainer = ++nextId;
    }
    const link = inLink || name === 'a';
    for (const child of node.children ?? []) visit(child, current, childContainer, link);
  }

  const root: Block = { container: -1, parts: [], chars: 0, linkChars: 0 };
  blocks.push(root);
  visit(doc, root, 0, false);

  const kept = blocks.filter((b) => b.chars > 0 && b.linkChars / b.chars <= maxLinkDensity);
  const byContainer = new Map<number, number>();
  for (const b of kept) byContainer.set(b.container, (byContainer.get(b.container) ?? 0) + b.chars - b.linkChars);
  const best = Math.max(0, ...byContainer.values());
  const paragraphs = kept
    .filter((b) => (byContainer.get(b.container) ?? 0) >= best * minShare)
    .map((b) => b.parts.join('').replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 0);
  return { title, paragraphs, text: paragraphs.join('\n\n') };
}

function collectText(node: DomNode): string {
  if (node.type === 'text') return node.data ?? '';
  return (node.children ?? []).map(collectText).join('');
}
