import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDiscoveryTree } from '../../../worker/coherence';
import { foldedNodes, layoutTree, markerPath, markerRadius, moreKey, nodeAfterKey, searchMatches, showMoreSiblings, SHOWN_NODES, SIBLING_BATCH, UNFOLDED_MATCHES, visibleChildren } from '../../../app/crawls/[id]/coherence/tree-layout';

const roots = buildDiscoveryTree([
  { id: 0, url: 'http://x/', parentUrl: null, depth: 0, mime: 'text/html', status: 'unchanged', changeRate: 0 },
  { id: 0, url: 'http://x/a', parentUrl: 'http://x/', depth: 1, mime: 'text/html', status: 'links-changed', changeRate: 1 },
  { id: 0, url: 'http://x/a/deep', parentUrl: 'http://x/a', depth: 2, mime: 'image/png', status: 'unchanged', changeRate: 0 },
  { id: 0, url: 'http://x/b', parentUrl: 'http://x/', depth: 1, mime: 'application/pdf', status: 'missing', changeRate: 1 },
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

test('each row says its level and its place among the rows shown under its parent (the tree is drawn flat)', () => {
  const rows = layoutTree(roots, new Set()).rows;
  assert.deepEqual(rows.map((r) => [r.url, r.level, r.posInSet, r.setSize]), [
    ['http://x/', 1, 1, 1],
    ['http://x/a', 2, 1, 2],
    ['http://x/a/deep', 3, 1, 1],
    ['http://x/b', 2, 2, 2],
  ]);
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

test('the nodes a search holds open are marked: ArrowLeft there goes to the parent, as a fold would not show', () => {
  const l = layoutTree(roots, new Set(['http://x/', 'http://x/a']), 'deep');
  assert.deepEqual(l.nodes.filter((n) => n.pinned).map((n) => n.url), ['http://x/', 'http://x/a']);
  assert.equal(layoutTree(roots, new Set()).nodes.some((n) => n.pinned), false, 'none without a search');
});

test('as in a file tree, ArrowLeft goes to the parent and ArrowRight to the first child of an open node', () => {
  const all = layoutTree(roots, new Set()).nodes;
  assert.equal(nodeAfterKey(all, 'http://x/b', 'ArrowLeft'), 'http://x/', 'from the last child, past its sibling\'s subtree');
  assert.equal(nodeAfterKey(all, 'http://x/a/deep', 'ArrowLeft'), 'http://x/a');
  assert.equal(nodeAfterKey(all, 'http://x/', 'ArrowLeft'), null, 'a root has no parent');
  assert.equal(nodeAfterKey(all, 'http://x/', 'ArrowRight'), 'http://x/a');
  assert.equal(nodeAfterKey(all, 'http://x/b', 'ArrowRight'), null, 'a leaf has no child');
  const folded = layoutTree(roots, new Set(['http://x/a'])).nodes;
  assert.equal(nodeAfterKey(folded, 'http://x/a', 'ArrowRight'), null, 'a folded node shows no child (the view unfolds it)');
  // From a "+K more" row, the parent too.
  const wide = buildDiscoveryTree([{ id: 0, url: 'http://w/', parentUrl: null, depth: 0, mime: 'text/html', status: 'unchanged', changeRate: 0 },
    ...Array.from({ length: SIBLING_BATCH + 5 }, (_, i) => ({ id: 0, url: `http://w/${String(i).padStart(3, '0')}`, parentUrl: 'http://w/', depth: 1, mime: 'text/html', status: 'unchanged' as const, changeRate: 0 }))]);
  const rows = layoutTree(wide, new Set()).rows;
  assert.equal(nodeAfterKey(rows, moreKey('http://w/'), 'ArrowLeft'), 'http://w/');
});

/** A discovery tree of `pages` pages, `fanOut` children per page, breadth first (as a crawl finds a site). */
function bigTree(pages: number, fanOut: number) {
  const rows = Array.from({ length: pages }, (_, i) => ({
    id: i, url: `http://big/${i}`, parentUrl: i === 0 ? null : `http://big/${Math.floor((i - 1) / fanOut)}`, depth: 0, mime: 'text/html', status: 'unchanged' as const, changeRate: 0,
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

/** `seeds` roots (seed-0000 … in order), each with `children` pages below it. */
function wideTree(seeds: number, children = 0, hubChildren = 0) {
  const pad = (i: number) => String(i).padStart(4, '0');
  const rows = [];
  for (let i = 0; i < seeds; i++) {
    const seed = `http://seed-${pad(i)}.example/`;
    rows.push({ id: 0, url: seed, parentUrl: null, depth: 0, mime: 'text/html', status: 'unchanged' as const, changeRate: 0 });
    const n = i === 0 ? hubChildren : children;
    for (let k = 0; k < n; k++) rows.push({ id: 0, url: `${seed}p-${pad(k)}`, parentUrl: seed, depth: 1, mime: 'text/html', status: 'unchanged' as const, changeRate: 0 });
  }
  return buildDiscoveryTree(rows);
}

test('a level shows the first SIBLING_BATCH siblings and one "+K more" row for the rest, rows and search matches included', () => {
  assert.deepEqual(visibleChildren(roots, 1), { shown: [roots[0]], hidden: 0 });
  const three = roots[0]!.children;
  assert.deepEqual(visibleChildren(three, 1).shown.map((n) => n.url), ['http://x/a']);
  assert.equal(visibleChildren(three, 1).hidden, 1);
  assert.deepEqual(visibleChildren(three, 1, new Set(['http://x/b'])), { shown: three, hidden: 0 }, 'a revealed sibling is shown after the batch');

  // 5,000 seeds (sitemap pages, a seed list) drew 5,000 nodes, each unfolded with its children.
  const wide = wideTree(5_000, 2);
  const l = layoutTree(wide, foldedNodes(wide, new Map()));
  const shownRoots = l.nodes.filter((n) => n.url.endsWith('.example/'));
  assert.equal(shownRoots.length, SIBLING_BATCH);
  assert.deepEqual(shownRoots.map((n) => n.url), wide.slice(0, SIBLING_BATCH).map((n) => n.url), 'the first, in order');
  assert.ok(l.rows.length <= SHOWN_NODES, `${l.rows.length} rows`);
  assert.deepEqual(l.more.map((m) => [m.url, m.parent, m.hidden, m.next]), [[moreKey(''), '', 4_900, wide[SIBLING_BATCH]!.url]]);
  assert.equal(l.rows.at(-1)!.url, moreKey(''), 'the "+K more" row comes after the shown siblings and their subtrees');
  assert.equal(new Set(l.rows.map((r) => `${r.x},${r.y}`)).size, l.rows.length, 'a row of its own');

  // Each "+K more" shows the next batch; what was open stays open, the new siblings come folded.
  const more = showMoreSiblings(new Map(), '');
  const l2 = layoutTree(wide, foldedNodes(wide, new Map()), '', more);
  assert.equal(l2.nodes.filter((n) => n.url.endsWith('.example/')).length, 2 * SIBLING_BATCH);
  assert.equal(l2.more[0]!.hidden, 4_800);
  const unfolded = (x: typeof l) => x.nodes.filter((n) => n.childCount && !n.collapsed).map((n) => n.url);
  assert.ok(unfolded(l).length > 0);
  assert.deepEqual(unfolded(l2), unfolded(l));
  assert.ok(l2.nodes.filter((n) => n.url.endsWith('.example/')).slice(SIBLING_BATCH).every((n) => n.collapsed));
  assert.deepEqual(showMoreSiblings(more, ''), new Map([['', 3 * SIBLING_BATCH]]));
  const all = layoutTree(wide, foldedNodes(wide, new Map()), '', new Map([['', 5_000]]));
  assert.equal(all.more.length, 0, 'no row once every sibling shows');

  // A hub page with 5,000 links shows a batch of them when unfolded, not all 5,000.
  const hub = wideTree(1, 0, 5_000);
  const h = layoutTree(hub, foldedNodes(hub, new Map()));
  assert.equal(h.nodes.length, 1 + SIBLING_BATCH);
  assert.deepEqual(h.more.map((m) => [m.parent, m.hidden]), [[hub[0]!.url, 4_900]]);
  assert.equal(h.links.length, SIBLING_BATCH + 1, 'the hub links to its shown children and to the row');
  assert.equal(h.nodes[0]!.childCount, 5_000, 'a page still counts all its children');
  const folded = layoutTree(hub, foldedNodes(hub, new Map([[hub[0]!.url, true]])));
  assert.equal(folded.rows.length, 1, 'a folded hub hides its row too');
});

test('a search reaches a match among hidden siblings, at any depth, and still counts every match', () => {
  const wide = wideTree(5_000, 0, 0);
  const folded = foldedNodes(wide, new Map());
  const l = layoutTree(wide, folded, 'seed-4321');
  assert.equal(l.matchCount, 1);
  assert.ok(l.nodes.some((n) => n.url === 'http://seed-4321.example/' && n.matches), 'the hidden root is shown');
  assert.equal(l.nodes.length, SIBLING_BATCH + 1);
  assert.equal(l.more[0]!.hidden, 4_899, 'the row counts the others');

  // A match behind two hidden levels: a hidden seed's hidden child.
  const deep = buildDiscoveryTree([
    ...Array.from({ length: 300 }, (_, i) => ({ id: 0, url: `http://seed-${String(i).padStart(4, '0')}.example/`, parentUrl: null, depth: 0, mime: 'text/html', status: 'unchanged' as const, changeRate: 0 })),
    ...Array.from({ length: 250 }, (_, k) => ({ id: 0, url: `http://seed-0250.example/q-${String(k).padStart(3, '0')}`, parentUrl: 'http://seed-0250.example/', depth: 1, mime: 'text/html', status: 'missing' as const, changeRate: 1 })),
  ]);
  const d = layoutTree(deep, foldedNodes(deep, new Map()), 'q-200');
  assert.deepEqual(d.nodes.filter((n) => n.matches).map((n) => n.url), ['http://seed-0250.example/q-200']);
  const seed = d.nodes.find((n) => n.url === 'http://seed-0250.example/')!;
  assert.equal(seed.collapsed, false, 'the way to it unfolds');
  assert.deepEqual(d.more.map((m) => [m.parent, m.hidden]).sort(), [['', 199], ['http://seed-0250.example/', 149]]);
  assert.deepEqual(searchMatches(deep, 'q-2', UNFOLDED_MATCHES).first, new Set(Array.from({ length: 50 }, (_, k) => `http://seed-0250.example/q-2${String(k).padStart(2, '0')}`).slice(0, UNFOLDED_MATCHES)));
  assert.equal(layoutTree(deep, foldedNodes(deep, new Map()), 'q-').matchCount, 250, 'every match counted, shown or not');
});

test('the keyboard walks onto and past a "+K more" row', () => {
  const wide = wideTree(150, 0);
  const l = layoutTree(wide, foldedNodes(wide, new Map()));
  const lastShown = wide[SIBLING_BATCH - 1]!.url;
  assert.equal(nodeAfterKey(l.rows, lastShown, 'ArrowDown'), moreKey(''));
  assert.equal(nodeAfterKey(l.rows, moreKey(''), 'ArrowUp'), lastShown);
  assert.equal(nodeAfterKey(l.rows, moreKey(''), 'ArrowDown'), null, 'the row is the last');
  assert.equal(nodeAfterKey(l.rows, wide[0]!.url, 'End'), moreKey(''));
  assert.equal(nodeAfterKey(l.rows, moreKey(''), 'Home'), wide[0]!.url);
  // Once it shows the rest, the row's place is taken by the first of the new batch.
  const after = layoutTree(wide, foldedNodes(wide, new Map()), '', showMoreSiblings(new Map(), ''));
  assert.equal(l.more[0]!.next, wide[SIBLING_BATCH]!.url);
  assert.equal(nodeAfterKey(after.rows, lastShown, 'ArrowDown'), l.more[0]!.next);
  assert.equal(after.more.length, 0);
});

test('a search matches the URL as the curator reads it: percent-escapes decoded, any case, spaces around ignored', () => {
  const tree = buildDiscoveryTree([
    { id: 0, url: 'http://x/', parentUrl: null, depth: 0, mime: 'text/html', status: 'unchanged', changeRate: 0 },
    { id: 0, url: 'http://x/caf%C3%A9/Menu%20du%20jour', parentUrl: 'http://x/', depth: 1, mime: 'text/html', status: 'unchanged', changeRate: 0 },
    { id: 0, url: 'http://x/bad%E0%A4%A', parentUrl: 'http://x/', depth: 1, mime: 'text/html', status: 'unchanged', changeRate: 0 },
  ]);
  const menu = 'http://x/caf%C3%A9/Menu%20du%20jour';
  for (const search of ['menu du jour', 'café', 'CAF%C3%A9', ' Menu ']) {
    assert.deepEqual([...searchMatches(tree, search).first], [menu], search);
    assert.equal(layoutTree(tree, new Set(), search).nodes.find((n) => n.url === menu)!.matches, true, search);
  }
  assert.deepEqual([...searchMatches(tree, 'bad%e0').first], ['http://x/bad%E0%A4%A'], 'a URL that does not decode is matched as it is');
  assert.equal(searchMatches(tree, '   ').count, 0, 'a blank search matches nothing');
});
