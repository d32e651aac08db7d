import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDiscoveryTree } from '../../../worker/coherence';
import { foldedNodes, layoutTree, markerPath, markerRadius, nodeAfterKey, searchMatches, SHOWN_NODES, UNFOLDED_MATCHES } from '../../../app/crawls/[id]/coherence/tree-layout';

const roots = buildDiscoveryTree([
  { url: 'http://x/', parentUrl: null, depth: 0, mime: 'text/html', status: 'unchanged', changeRate: 0 },
  { url: 'http://x/a', parentUrl: 'http://x/', depth: 1, mime: 'text/html', status: 'links-changed', changeRate: 1 },
  { url: 'http://x/a/deep', parentUrl: 'http://x/a', depth: 2, mime: 'image/png', status: 'unchanged', changeRate: 0 },
  { url: 'http://x/b', parentUrl: 'http://x/', depth: 1, mime: 'application/pdf', status: 'missing', changeRate: 1 },
]);

test('layout: every node placed, children right of their parents, no two nodes on one spot', () => {
  const l = layoutTree(roots, new Set());
  assert.equal(l.nodes.length, 4);
  assert.equal(l.links.length, 3);
  const at = new Map(l.nodes.map((n) => [n.url, n]));
  assert.ok(at.get('http://x/a')!.x > at.get('http://x/')!.x);
  assert.ok(at.get('http://x/a/deep')!.x > at.get('http://x/a')!.x);
  assert.equal(new Set(l.nodes.map((n) => `${n.x},${n.y}`)).size, 4);
  assert.ok(l.nodes.every((n) => n.y >= 0 && n.y <= l.height));
  assert.ok(at.get('http://x/')!.r > at.get('http://x/b')!.r, 'sized by coherent pages below');
});

test('collapse hides a subtree unless a search match lies inside it', () => {
  const collapsed = new Set(['http://x/a']);
  const l = layoutTree(roots, collapsed);
  assert.deepEqual(l.nodes.map((n) => n.url).sort(), ['http://x/', 'http://x/a', 'http://x/b']);
  assert.equal(l.nodes.find((n) => n.url === 'http://x/a')!.collapsed, true);
  const found = layoutTree(roots, collapsed, 'deep');
  assert.ok(found.nodes.some((n) => n.url === 'http://x/a/deep' && n.matches));
  assert.deepEqual([...searchMatches(roots, 'deep').open].sort(), ['http://x/', 'http://x/a']);
});

test('markers differ by MIME class', () => {
  const shapes = new Set([markerPath('html', 5), markerPath('media', 5), markerPath('other', 5)]);
  assert.equal(shapes.size, 3);
});

test('the keyboard walks the shown nodes in tree order: down, up, home, end; a collapsed subtree is skipped', () => {
  const all = layoutTree(roots, new Set()).nodes;
  assert.deepEqual(all.map((n) => n.url), ['http://x/', 'http://x/a', 'http://x/a/deep', 'http://x/b'], 'parents before children, siblings in order');
  const walk = (nodes: typeof all, keys: string[], from: string | null) => keys.map((k) => (from = nodeAfterKey(nodes, from, k) ?? from));
  assert.deepEqual(walk(all, ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown'], 'http://x/'), ['http://x/a', 'http://x/a/deep', 'http://x/b', 'http://x/b']);
  assert.equal(nodeAfterKey(all, 'http://x/b', 'ArrowDown'), null, 'nothing past the end');
  assert.equal(nodeAfterKey(all, 'http://x/a/deep', 'ArrowUp'), 'http://x/a');
  assert.equal(nodeAfterKey(all, 'http://x/', 'ArrowUp'), null);
  assert.equal(nodeAfterKey(all, 'http://x/a', 'End'), 'http://x/b');
  assert.equal(nodeAfterKey(all, 'http://x/b', 'Home'), 'http://x/');
  assert.equal(nodeAfterKey(all, 'http://x/a', 'Enter'), null, 'not a move');
  const folded = layoutTree(roots, new Set(['http://x/a'])).nodes;
  assert.equal(nodeAfterKey(folded, 'http://x/a', 'ArrowDown'), 'http://x/b');
  assert.equal(nodeAfterKey(folded, 'http://x/a/deep', 'ArrowDown'), 'http://x/', 'from a hidden node, the first');
  assert.equal(nodeAfterKey([], null, 'Home'), null);
});

/** A discovery tree of `pages` pages, `fanOut` children per page, breadth first (as a crawl finds a site). */
function bigTree(pages: number, fanOut: number) {
  const rows = Array.from({ length: pages }, (_, i) => ({
    url: `http://big/${i}`, parentUrl: i === 0 ? null : `http://big/${Math.floor((i - 1) / fanOut)}`, depth: 0, mime: 'text/html', status: 'unchanged' as const, changeRate: 0,
  }));
  return buildDiscoveryTree(rows);
}

test('a crawl of 20,000 pages opens with at most SHOWN_NODES nodes, breadth first, the rest folded', () => {
  const big = bigTree(20_000, 25);
  const folded = foldedNodes(big, new Map());
  const l = layoutTree(big, folded);
  // The root and its 25 children fit, and the children of the first ten: it used to draw all 20,000.
  assert.ok(l.nodes.length <= SHOWN_NODES, `${l.nodes.length} nodes shown`);
  assert.equal(l.nodes[0]!.url, 'http://big/0');
  const shown = new Set(l.nodes.map((n) => n.url));
  for (let i = 0; i <= 25; i++) assert.ok(shown.has(`http://big/${i}`), `page ${i} shown`);
  assert.equal(l.nodes.find((n) => n.url === 'http://big/1')!.collapsed, false);
  assert.equal(l.nodes.find((n) => n.url === 'http://big/25')!.collapsed, true, 'a folded page says so (+children)');

  // Unfolding a page shows its children, folded in turn, not its whole subtree.
  const unfolded = layoutTree(big, foldedNodes(big, new Map([['http://big/25', false]])));
  assert.equal(unfolded.nodes.length, l.nodes.length + 25);
  const grandchildren = unfolded.nodes.filter((n) => n.url !== 'http://big/25' && Math.floor((Number(n.url.split('/').pop()) - 1) / 25) === 25);
  assert.equal(grandchildren.length, 25);
  assert.ok(grandchildren.every((n) => n.collapsed), 'its children stay folded');
  // The archivist's folds win over the default: the root folded hides everything under it.
  assert.equal(layoutTree(big, foldedNodes(big, new Map([['http://big/0', true]]))).nodes.length, 1);
  // A small capture is shown whole.
  assert.equal(foldedNodes(roots, new Map()).size, 0);
});

test('a search unfolds the way to its first UNFOLDED_MATCHES matches and counts them all', () => {
  const big = bigTree(20_000, 25);
  const folded = foldedNodes(big, new Map());
  // Pages 1, 10–19, 100–199, 1000–1999 and 10000–19999 have "/1" in their URLs.
  const l = layoutTree(big, folded, '/1');
  assert.equal(l.matchCount, 11_111);
  assert.ok(l.nodes.filter((n) => n.matches).length >= UNFOLDED_MATCHES);
  assert.ok(l.nodes.length < 2_000, `${l.nodes.length} nodes shown`);
  assert.equal(searchMatches(big, '/19999').count, 1);
  assert.ok(layoutTree(big, folded, '/19999').nodes.some((n) => n.url === 'http://big/19999' && n.matches), 'a deep match is shown');
});

test('markers grow with the coherent pages below but never past half a row, so they do not overlap', () => {
  const big = bigTree(20_000, 25);
  const l = layoutTree(big, foldedNodes(big, new Map()));
  // The seed has 20,000 coherent pages below it: a 285 px radius before.
  assert.ok(l.nodes.every((n) => n.r <= 22 / 2 - 1), `largest ${Math.max(...l.nodes.map((n) => n.r))}`);
  const radii = [0, 1, 25, 800].map((below) => markerRadius(below, 22));
  assert.equal(radii[0], 4);
  assert.deepEqual([...radii].sort((a, b) => a - b), radii, `${radii}`);
  assert.equal(new Set(radii).size, radii.length, 'each decade shows');
});
