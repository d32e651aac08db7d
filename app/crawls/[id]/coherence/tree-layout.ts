import { hierarchy, tree, type HierarchyPointNode } from 'd3';
import type { MimeClass, TreeNode } from '../../../../worker/coherence/coherence-view';

/**
 * Layout of the coherence view's discovery tree (pure: d3 computes, React draws). A virtual root
 * holds the capture's roots; collapsed nodes hide their subtrees; a level shows a batch of its
 * siblings and a "+K more" row for the rest; the node radius grows with the number of coherent
 * pages below.
 */

export type NodeStatus = TreeNode['status'];

/**
 * A node's marker is its status: each colour reads at 3:1 or more on the tree's white and on the
 * page's slate-50 behind the legend (WCAG 1.4.11), the yellow and the grey darkened just that far
 * (from #eab308 and #9ca3af, 1.9:1 and 2.5:1 on white).
 */
export const STATUS_COLOURS: Record<NodeStatus, string> = {
  unchanged: '#16a34a',
  'content-changed': '#b68b06',
  'links-changed': '#dc2626',
  missing: '#111827',
  pending: '#88919f',
  // violet-600: 5.7:1 on white.
  'after-reference': '#7c3aed',
};

export const STATUS_LABELS: Record<NodeStatus, string> = {
  unchanged: 'unchanged',
  'content-changed': 'content changed',
  'links-changed': 'links changed',
  missing: 'missing',
  pending: 'not revisited yet',
  'after-reference': 'visited after the reference time',
};

/** Where a row sits in the tree, for assistive technology (the tree is drawn flat, not nested): ARIA's level, posinset and setsize. */
export interface TreePlace {
  /** 1 for a root. */
  level: number;
  /** 1-based, among the rows shown under the same parent. */
  posInSet: number;
  setSize: number;
}

/** A page of the capture, placed. */
export interface LaidOutNode extends TreePlace {
  kind: 'page';
  url: string;
  status: NodeStatus;
  mimeClass: MimeClass;
  coherentBelow: number;
  x: number;
  y: number;
  r: number;
  childCount: number;
  collapsed: boolean;
  matches: boolean;
  /** Held open by the search (a match lies below, among the first UNFOLDED_MATCHES): folding it shows no change while the search stands. */
  pinned: boolean;
}

/** The "+K more" row after the shown children of `parent` ('' for the roots): showing it shows the next batch. */
export interface LaidOutMore extends TreePlace {
  kind: 'more';
  /** The row's key (moreKey(parent)), in the place of a page's URL. */
  url: string;
  parent: string;
  /** Siblings it stands for (not shown). */
  hidden: number;
  /** The first sibling the next batch shows. */
  next: string;
  x: number;
  y: number;
}

export type TreeRow = LaidOutNode | LaidOutMore;

export interface LaidOutLink {
  source: { x: number; y: number };
  target: { x: number; y: number };
}

export interface TreeLayout {
  /** Pages and "+K more" rows in tree order: each node before its children, siblings in order. */
  rows: TreeRow[];
  /** The shown pages, in tree order. */
  nodes: LaidOutNode[];
  /** The "+K more" rows, in tree order. */
  more: LaidOutMore[];
  links: LaidOutLink[];
  width: number;
  height: number;
  /** Nodes whose URL matches the search text (urlMatcher), shown or not. */
  matchCount: number;
}

interface Shown {
  url: string;
  node?: TreeNode;
  more?: { parent: string; hidden: number; next: string };
  children: Shown[];
}

/**
 * Most nodes the tree shows when it opens. A crawl of 20,000 pages drew every one (about 100,000
 * SVG elements): 3–9 s before the first node showed, and each zoom or pan step re-rendered them all.
 */
export const SHOWN_NODES = 300;

/**
 * Most siblings a level shows until the archivist asks for more, and how many more each "+K more"
 * row shows. Folding bounded the depth but not the width: a capture with 5,000 roots (seeds,
 * sitemap pages whose parent is unknown), or a hub page with 5,000 links, drew all 5,000 siblings.
 */
export const SIBLING_BATCH = 100;

/** Most search matches whose way from the root a search unfolds (every match is counted). */
export const UNFOLDED_MATCHES = 20;

/** The key of the "+K more" row under `parent` ('' for the roots): no URL has a space. */
export function moreKey(parent: string): string {
  return `more ${parent}`;
}

/** How many children of `parent` ('' for the roots) are shown: the archivist's choice (`siblings`) or one batch. */
export function siblingLimit(siblings: ReadonlyMap<string, number>, parent: string): number {
  return siblings.get(parent) ?? SIBLING_BATCH;
}

/** `siblings` with one more batch of `parent`'s children shown (what its "+K more" row does). */
export function showMoreSiblings(siblings: ReadonlyMap<string, number>, parent: string): Map<string, number> {
  return new Map(siblings).set(parent, siblingLimit(siblings, parent) + SIBLING_BATCH);
}

/**
 * The children a level shows: the first `limit`, then, in order, any later ones in `reveal` (search
 * matches and the ways to them); `hidden` counts the rest, which a "+K more" row stands for.
 */
export function visibleChildren(children: readonly TreeNode[], limit: number, reveal?: ReadonlySet<string>): { shown: TreeNode[]; hidden: number } {
  if (children.length <= limit) return { shown: [...children], hidden: 0 };
  const shown = children.slice(0, limit);
  if (reveal?.size) for (let i = limit; i < children.length; i++) if (reveal.has(children[i]!.url)) shown.push(children[i]!);
  return { shown, hidden: children.length - shown.length };
}

/**
 * The folded nodes (those with children that are not shown): breadth first from the roots, a shown
 * node is unfolded while its shown children (the first SIBLING_BATCH, and a "+K more" row for the
 * rest) fit within `budget` rows; the archivist's own folds and unfolds (`toggled`: URL → folded)
 * come first. Every node below stays folded, so unfolding one shows its children, not its whole
 * subtree. Siblings the archivist shows with a "+K more" row open folded and take none of the
 * budget, so asking for more of one level does not fold what is open elsewhere.
 */
export function foldedNodes(roots: readonly TreeNode[], toggled: ReadonlyMap<string, boolean>, budget = SHOWN_NODES): Set<string> {
  const folded = new Set<string>();
  const rowsOf = (count: number) => (count > SIBLING_BATCH ? SIBLING_BATCH + 1 : count);
  let shown = rowsOf(roots.length);
  const queue = roots.map((node, i) => ({ node, visible: i < SIBLING_BATCH }));
  for (let i = 0; i < queue.length; i++) {
    const { node, visible } = queue[i]!;
    if (!node.children.length) continue;
    const rows = rowsOf(node.children.length);
    const fold = toggled.get(node.url) ?? !(visible && shown + rows <= budget);
    if (fold) folded.add(node.url);
    else if (visible) shown += rows;
    node.children.forEach((child, k) => queue.push({ node: child, visible: visible && !fold && k < SIBLING_BATCH }));
  }
  return folded;
}

/**
 * Whether a URL matches the search text, as the curator reads URLs: in any case, with its
 * percent-escapes decoded (`menu du jour` and `café` find `/caf%C3%A9/menu%20du%20jour`), or as
 * stored; spaces around the text are ignored. Null for a blank search.
 */
export function urlMatcher(search: string): ((url: string) => boolean) | null {
  const text = search.trim().toLowerCase();
  if (!text) return null;
  // Text a URL holds as it is (characters a URL does not escape) is looked for as stored only:
  // decoding 100,000 URLs took a search 45 ms a keystroke, against 7.
  const decoding = !/^[a-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/.test(text);
  return (url) => {
    const lower = url.toLowerCase();
    if (lower.includes(text)) return true;
    if (!decoding || !lower.includes('%')) return false;
    try {
      return decodeURIComponent(lower).includes(text);
    } catch {
      return false; // an escape that does not decode: matched as stored only
    }
  };
}

/**
 * Nodes whose URL matches the search text (urlMatcher): how many, the first `limit` of them in tree order
 * (`first`), and the URLs on the way to those (`open`: the nodes a search unfolds).
 */
export function searchMatches(roots: readonly TreeNode[], search: string, limit = Infinity): { count: number; open: Set<string>; first: Set<string> } {
  const open = new Set<string>();
  const first = new Set<string>();
  let count = 0;
  const matches = urlMatcher(search);
  if (!matches) return { count, open, first };
  const path: string[] = [];
  const visit = (n: TreeNode): void => {
    if (matches(n.url) && count++ < limit) {
      first.add(n.url);
      for (const u of path) open.add(u);
    }
    path.push(n.url);
    for (const c of n.children) visit(c);
    path.pop();
  };
  for (const r of roots) visit(r);
  return { count, open, first };
}

/**
 * Positions for the visible nodes: a horizontal tidy tree, `rowHeight` px between siblings and
 * `columnWidth` px per depth. Collapsed nodes (unless on the way to one of the first
 * UNFOLDED_MATCHES search matches) hide their children; each level shows its first
 * `siblingLimit(siblings, parent)` children, those matches and the ways to them, and a "+K more"
 * row for the rest.
 */
export function layoutTree(roots: readonly TreeNode[], collapsed: ReadonlySet<string>, search = '', siblings: ReadonlyMap<string, number> = new Map(), rowHeight = 22, columnWidth = 180): TreeLayout {
  const { count: matchCount, open: forcedOpen, first } = searchMatches(roots, search, UNFOLDED_MATCHES);
  const reveal = new Set([...forcedOpen, ...first]);
  const matcher = urlMatcher(search);
  const level = (parent: string, children: readonly TreeNode[]): Shown[] => {
    const limit = siblingLimit(siblings, parent);
    const { shown, hidden } = visibleChildren(children, limit, reveal);
    const out = shown.map(place);
    if (hidden) out.push({ url: moreKey(parent), more: { parent, hidden, next: children[limit]!.url }, children: [] });
    return out;
  };
  const place = (n: TreeNode): Shown => ({ url: n.url, node: n, children: collapsed.has(n.url) && !forcedOpen.has(n.url) ? [] : level(n.url, n.children) });
  const root = hierarchy<Shown>({ url: '', children: level('', roots) });
  const laid = tree<Shown>().nodeSize([rowHeight, columnWidth])(root);
  const rows: TreeRow[] = [];
  const links: LaidOutLink[] = [];
  let minX = Infinity;
  let maxX = -Infinity;
  let maxY = 0;
  const positions = new Map<HierarchyPointNode<Shown>, number>();
  laid.each((d) => d.children?.forEach((child, i) => positions.set(child, i)));
  // Tree order (parents before children, siblings in order): the keyboard walks it (nodeAfterKey).
  laid.eachBefore((d) => {
    if (!d.parent) return;
    // d3's tree is vertical: x across siblings, y down the depth; we draw it left to right.
    const x = d.y - columnWidth;
    const y = d.x;
    minX = Math.min(minX, y);
    maxX = Math.max(maxX, y);
    maxY = Math.max(maxY, x);
    const { node: n, more } = d.data;
    const place = { level: d.depth, posInSet: (positions.get(d) ?? 0) + 1, setSize: d.parent.children!.length };
    if (more) rows.push({ kind: 'more', url: d.data.url, ...more, x, y, ...place });
    else if (n) {
      rows.push({
        kind: 'page', url: n.url, status: n.status, mimeClass: n.mimeClass, coherentBelow: n.coherentBelow, x, y, ...place,
        r: markerRadius(n.coherentBelow, rowHeight), childCount: n.children.length,
        collapsed: n.children.length > 0 && d.data.children.length === 0, matches: matcher?.(n.url) ?? false, pinned: forcedOpen.has(n.url),
      });
    }
    if (d.parent.data.node) links.push({ source: { x: d.parent.y - columnWidth, y: d.parent.x }, target: { x, y } });
  });
  const shift = Number.isFinite(minX) ? -minX + rowHeight : 0;
  for (const n of rows) n.y += shift;
  for (const l of links) {
    l.source.y += shift;
    l.target.y += shift;
  }
  return {
    rows, nodes: rows.filter((r) => r.kind === 'page'), more: rows.filter((r) => r.kind === 'more'), links,
    width: maxY + columnWidth, height: (Number.isFinite(maxX) ? maxX - minX : 0) + 2 * rowHeight, matchCount,
  };
}

/**
 * A node's marker radius from the coherent pages below it: 4 px for none, growing by 2 px per
 * decade up to half a row (10 px at 1,000 pages with 22 px rows), so markers never overlap. The
 * square root it grew with drew the seed of a 20,000-page capture 285 px wide, over its children.
 */
export function markerRadius(coherentBelow: number, rowHeight: number): number {
  return Math.min(rowHeight / 2 - 1, 4 + 2 * Math.log10(1 + coherentBelow));
}

/** SVG path of a node's marker: circle for HTML, square for media, diamond for other binaries. */
export function markerPath(mimeClass: MimeClass, r: number): string {
  if (mimeClass === 'media') return `M${-r},${-r}h${2 * r}v${2 * r}h${-2 * r}Z`;
  if (mimeClass === 'other') return `M0,${-r * 1.3}L${r * 1.3},0L0,${r * 1.3}L${-r * 1.3},0Z`;
  return `M${-r},0a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
}

/**
 * Where a key moves the keyboard focus among the shown rows (`nodes` in tree order, as
 * layoutTree's `rows`, "+K more" rows included), as in a file tree: ArrowDown / ArrowUp to the
 * next / previous row, Home / End to the first / last, ArrowLeft to the parent, ArrowRight to the
 * first child of an open node (the view folds and unfolds before it moves). Null for other keys,
 * past either end, or when nothing is shown. From no row (`url` null or hidden by a collapse) any
 * move starts at the first.
 */
export function nodeAfterKey(nodes: readonly { url: string; level: number }[], url: string | null, key: string): string | null {
  if (!nodes.length || !['ArrowDown', 'ArrowUp', 'Home', 'End', 'ArrowLeft', 'ArrowRight'].includes(key)) return null;
  const at = nodes.findIndex((n) => n.url === url);
  if (key === 'Home' || at < 0) return nodes[0]!.url;
  if (key === 'End') return nodes[nodes.length - 1]!.url;
  const level = nodes[at]!.level;
  if (key === 'ArrowRight') return nodes[at + 1]?.level === level + 1 ? nodes[at + 1]!.url : null;
  if (key === 'ArrowLeft') {
    for (let i = at - 1; i >= 0; i--) if (nodes[i]!.level < level) return nodes[i]!.url;
    return null;
  }
  return nodes[at + (key === 'ArrowDown' ? 1 : -1)]?.url ?? null;
}
