import { hierarchy, tree } from 'd3';
import type { MimeClass, TreeNode } from '../../../../worker/coherence/coherence-view';

/**
 * Layout of the coherence view's discovery tree (pure: d3 computes, React draws). A virtual root
 * holds the capture's roots; collapsed nodes hide their subtrees; the node radius grows with the
 * number of coherent pages below.
 */

export type NodeStatus = TreeNode['status'];

export const STATUS_COLOURS: Record<NodeStatus, string> = {
  unchanged: '#16a34a',
  'content-changed': '#eab308',
  'links-changed': '#dc2626',
  missing: '#111827',
  pending: '#9ca3af',
};

export const STATUS_LABELS: Record<NodeStatus, string> = {
  unchanged: 'unchanged',
  'content-changed': 'content changed',
  'links-changed': 'links changed',
  missing: 'missing',
  pending: 'not revisited yet',
};

export interface LaidOutNode {
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
}

export interface LaidOutLink {
  source: { x: number; y: number };
  target: { x: number; y: number };
}

export interface TreeLayout {
  /** In tree order: each node before its children, siblings in order. */
  nodes: LaidOutNode[];
  links: LaidOutLink[];
  width: number;
  height: number;
  /** Nodes whose URL contains the search text, shown or not. */
  matchCount: number;
}

interface Shown {
  url: string;
  node?: TreeNode;
  children: Shown[];
}

/**
 * Most nodes the tree shows when it opens. A crawl of 20,000 pages drew every one (about 100,000
 * SVG elements): 3–9 s before the first node showed, and each zoom or pan step re-rendered them all.
 */
export const SHOWN_NODES = 300;

/** Most search matches whose way from the root a search unfolds (every match is counted). */
export const UNFOLDED_MATCHES = 20;

/**
 * The folded nodes (those with children that are not shown): breadth first from the roots, a shown
 * node is unfolded while its children fit within `budget` shown nodes; the archivist's own folds
 * and unfolds (`toggled`: URL → folded) come first. Every node below stays folded, so unfolding one
 * shows its children, not its whole subtree.
 */
export function foldedNodes(roots: readonly TreeNode[], toggled: ReadonlyMap<string, boolean>, budget = SHOWN_NODES): Set<string> {
  const folded = new Set<string>();
  let shown = roots.length;
  const queue = roots.map((node) => ({ node, visible: true }));
  for (let i = 0; i < queue.length; i++) {
    const { node, visible } = queue[i]!;
    if (!node.children.length) continue;
    const fold = toggled.get(node.url) ?? !(visible && shown + node.children.length <= budget);
    if (fold) folded.add(node.url);
    else if (visible) shown += node.children.length;
    for (const child of node.children) queue.push({ node: child, visible: visible && !fold });
  }
  return folded;
}

/**
 * Nodes whose URL contains the search text: how many, and the URLs on the way to the first `limit`
 * of them in tree order (the nodes a search unfolds).
 */
export function searchMatches(roots: readonly TreeNode[], search: string, limit = Infinity): { count: number; open: Set<string> } {
  const open = new Set<string>();
  let count = 0;
  if (!search) return { count, open };
  const path: string[] = [];
  const visit = (n: TreeNode): void => {
    if (n.url.includes(search) && count++ < limit) for (const u of path) open.add(u);
    path.push(n.url);
    for (const c of n.children) visit(c);
    path.pop();
  };
  for (const r of roots) visit(r);
  return { count, open };
}

/**
 * Positions for the visible nodes: a horizontal tidy tree, `rowHeight` px between siblings and
 * `columnWidth` px per depth. Collapsed nodes (unless on the way to one of the first
 * UNFOLDED_MATCHES search matches) hide their children.
 */
export function layoutTree(roots: readonly TreeNode[], collapsed: ReadonlySet<string>, search = '', rowHeight = 22, columnWidth = 180): TreeLayout {
  const { count: matchCount, open: forcedOpen } = searchMatches(roots, search, UNFOLDED_MATCHES);
  const shown = (n: TreeNode): Shown => ({ url: n.url, node: n, children: collapsed.has(n.url) && !forcedOpen.has(n.url) ? [] : n.children.map(shown) });
  const root = hierarchy<Shown>({ url: '', children: roots.map(shown) });
  const laid = tree<Shown>().nodeSize([rowHeight, columnWidth])(root);
  const nodes: LaidOutNode[] = [];
  const links: LaidOutLink[] = [];
  let minX = Infinity;
  let maxX = -Infinity;
  let maxY = 0;
  // Tree order (parents before children, siblings in order): the keyboard walks it (nodeAfterKey).
  laid.eachBefore((d) => {
    if (!d.data.node) return;
    const n = d.data.node;
    // d3's tree is vertical: x across siblings, y down the depth; we draw it left to right.
    const x = d.y - columnWidth;
    const y = d.x;
    minX = Math.min(minX, y);
    maxX = Math.max(maxX, y);
    maxY = Math.max(maxY, x);
    nodes.push({
      url: n.url, status: n.status, mimeClass: n.mimeClass, coherentBelow: n.coherentBelow, x, y,
      r: markerRadius(n.coherentBelow, rowHeight), childCount: n.children.length,
      collapsed: n.children.length > 0 && d.data.children.length === 0, matches: Boolean(search) && n.url.includes(search),
    });
    if (d.parent?.data.node) links.push({ source: { x: d.parent.y - columnWidth, y: d.parent.x }, target: { x, y } });
  });
  const shift = Number.isFinite(minX) ? -minX + rowHeight : 0;
  for (const n of nodes) n.y += shift;
  for (const l of links) {
    l.source.y += shift;
    l.target.y += shift;
  }
  return { nodes, links, width: maxY + columnWidth, height: (Number.isFinite(maxX) ? maxX - minX : 0) + 2 * rowHeight, matchCount };
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
 * Where a key moves the keyboard focus among the shown nodes (`nodes` in tree order, as
 * layoutTree gives them), as in a file tree: ArrowDown / ArrowUp to the next / previous node,
 * Home / End to the first / last. Null for other keys, past either end, or when nothing is shown.
 * From no node (`url` null or hidden by a collapse) any move starts at the first.
 */
export function nodeAfterKey(nodes: readonly LaidOutNode[], url: string | null, key: string): string | null {
  if (!nodes.length || !['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(key)) return null;
  const at = nodes.findIndex((n) => n.url === url);
  if (key === 'Home' || at < 0) return nodes[0]!.url;
  if (key === 'End') return nodes[nodes.length - 1]!.url;
  return nodes[at + (key === 'ArrowDown' ? 1 : -1)]?.url ?? null;
}
