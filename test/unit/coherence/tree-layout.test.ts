import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDiscoveryTree } from '../../../worker/coherence';
import { layoutTree, markerPath, nodeAfterKey, pathsToMatches } from '../../../app/crawls/[id]/coherence/tree-layout';

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
  assert.deepEqual([...pathsToMatches(roots, 'deep')].sort(), ['http://x/', 'http://x/a']);
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
