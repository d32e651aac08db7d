import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AFTER_REFERENCE_TEXT, buildDiscoveryTree, diffWords, evidenceText, noCaptureText, rateHistogram, revisitHeading, sideSegments, toGraphML, treeStatusOf, type CoherencePageRow } from '../../../worker/coherence';

const rows: CoherencePageRow[] = [
  { id: 0, url: 'http://x/', parentUrl: null, depth: 0, mime: 'text/html', status: 'unchanged', changeRate: 0 },
  { id: 0, url: 'http://x/a', parentUrl: 'http://x/', depth: 1, mime: 'text/html', status: 'links-changed', changeRate: 5 },
  { id: 0, url: 'http://x/a/1', parentUrl: 'http://x/a', depth: 2, mime: 'text/html', status: 'unchanged', changeRate: 0 },
  { id: 0, url: 'http://x/a/2', parentUrl: 'http://x/a', depth: 2, mime: 'image/png', status: 'unchanged', changeRate: null },
  { id: 0, url: 'http://x/b', parentUrl: 'http://x/', depth: 1, mime: 'application/pdf', status: 'missing', changeRate: 0.002 },
  { id: 0, url: 'http://y/orphan', parentUrl: 'http://elsewhere/', depth: 3, mime: null, status: null, changeRate: null },
];

test('discovery tree: pages under their first parent, coherent pages counted per subtree', () => {
  const roots = buildDiscoveryTree(rows);
  assert.deepEqual(roots.map((r) => r.url), ['http://x/', 'http://y/orphan']);
  const home = roots[0]!;
  assert.equal(home.coherentBelow, 3);
  assert.deepEqual(home.children.map((c) => [c.url, c.status, c.mimeClass, c.coherentBelow]), [
    ['http://x/a', 'links-changed', 'html', 2],
    ['http://x/b', 'missing', 'other', 0],
  ]);
  assert.equal(home.children[0]!.children[1]!.mimeClass, 'media');
  assert.equal(roots[1]!.status, 'pending');
});

test('pages found through a sitemap sit under the nearest page above them in the URL path, never in a cycle', () => {
  const page = (url: string, parentUrl: string | null): CoherencePageRow => ({ id: 0, url, parentUrl, depth: 1, mime: 'text/html', status: 'unchanged', changeRate: 0 });
  const sitemap = 'http://d/sitemap.xml'; // captured, but no page of the capture
  const found = [
    page('http://d/', null),
    page('http://d/harbour/', sitemap),
    page('http://d/harbour/lighthouse.html', sitemap),
    page('http://d/harbour/tides/2024.html', sitemap),
    page('http://d/about.html', 'http://d/'),
    // Found by a sitemap, while the page above it in the path was linked from it: no cycle.
    page('http://d/x/y.html', sitemap),
    page('http://d/x/', 'http://d/x/y.html'),
  ];
  const roots = buildDiscoveryTree(found);
  assert.deepEqual(roots.map((r) => r.url), ['http://d/'], 'one root, the seed (31 of 39 demo pages were roots)');
  const under = (url: string) => {
    const find = (nodes: ReturnType<typeof buildDiscoveryTree>): string[] | undefined => {
      for (const n of nodes) {
        if (n.url === url) return n.children.map((c) => c.url);
        const deeper = find(n.children);
        if (deeper) return deeper;
      }
      return undefined;
    };
    return find(roots);
  };
  assert.deepEqual(under('http://d/'), ['http://d/about.html', 'http://d/harbour/', 'http://d/x/y.html']);
  assert.deepEqual(under('http://d/harbour/'), ['http://d/harbour/lighthouse.html', 'http://d/harbour/tides/2024.html']);
  assert.deepEqual(under('http://d/x/y.html'), ['http://d/x/']);
  assert.equal(roots[0]!.coherentBelow, found.length, 'every page is in the tree');
  const xml = toGraphML(found);
  assert.equal((xml.match(/<edge /g) ?? []).length, found.length - 1, 'GraphML has the same tree');
});

test('GraphML: one node per page, one edge per tree link, XML-escaped', () => {
  const xml = toGraphML([...rows, { id: 0, url: 'http://x/q?a=1&b=<2>', parentUrl: 'http://x/', depth: 1, mime: 'text/html', status: 'content-changed', changeRate: 1 }]);
  assert.equal((xml.match(/<node /g) ?? []).length, rows.length + 1);
  assert.equal((xml.match(/<edge /g) ?? []).length, 5);
  assert.ok(xml.includes('http://x/q?a=1&amp;b=&lt;2&gt;'));
  assert.ok(xml.includes('<data key="status">links-changed</data>'));
  assert.ok(!/&(?!amp;|lt;|gt;|quot;|apos;)/.test(xml));
});

test('rate histogram: zero bin and decades', () => {
  const h = rateHistogram([0, 0, 0.002, 5, 5, 9.99, 50000]);
  assert.equal(h[0]!.count, 2);
  assert.equal(h.find((b) => b.from === 0.001)!.count, 1);
  assert.equal(h.find((b) => b.from === 1)!.count, 3);
  assert.equal(h.at(-1)!.count, 1, 'above the top decade goes to the last bin');
  assert.equal(h.reduce((s, b) => s + b.count, 0), 7);
});

test('word diff marks removed and added words and keeps the rest', () => {
  assert.deepEqual(diffWords('the tide is high today', 'the tide was high today'), [
    { kind: 'same', text: 'the tide' }, { kind: 'removed', text: 'is' }, { kind: 'added', text: 'was' }, { kind: 'same', text: 'high today' },
  ]);
  assert.deepEqual(diffWords('', 'new'), [{ kind: 'added', text: 'new' }]);
  assert.deepEqual(diffWords('same', 'same'), [{ kind: 'same', text: 'same' }]);
});

test('word diff keeps paragraph breaks: each side reads as its text, paragraphs included, with the changed words marked', () => {
  const visit = 'The tide is high.\n\nBoats wait in the harbour.\n\nThe quay is closed.';
  const revisit = 'The tide is low.\n\nBoats wait in the harbour.\n\nA new paragraph.\n\nThe quay is closed.';
  const diff = diffWords(visit, revisit);
  const read = (side: 'visit' | 'revisit') => sideSegments(diff, side).map((s) => s.gap + s.text).join('');
  assert.equal(read('visit'), visit);
  assert.equal(read('revisit'), revisit);
  assert.deepEqual(diff.filter((s) => s.kind !== 'same'), [
    { kind: 'removed', text: 'high.' }, { kind: 'added', text: 'low.' }, { kind: 'added', text: '\n\nA new paragraph.' },
  ]);
  // Stray whitespace around the breaks (older stored texts, a lone newline) reads as one break; no break at either end.
  assert.equal(sideSegments(diffWords('\n a  b \n\n\n c\n', 'a b\nc'), 'revisit').map((s) => s.gap + s.text).join(''), 'a b\n\nc');
  assert.deepEqual(diffWords('a b\n\nc', 'a b c').filter((s) => s.kind !== 'same'), [{ kind: 'removed', text: '\n\n' }],
    'a paragraph joined is a removed break, the words all kept');
});

test('the side segments part words with one space, and nothing at a paragraph break', () => {
  const diff = [{ kind: 'same', text: 'a' }, { kind: 'removed', text: 'b\n\nc' }, { kind: 'added', text: 'x' }, { kind: 'same', text: '\n\nd e' }] as const;
  assert.deepEqual(sideSegments(diff, 'visit').map((s) => s.gap), ['', ' ', '']);
  assert.deepEqual(sideSegments(diff, 'revisit').map((s) => [s.gap, s.text]), [['', 'a'], [' ', 'x'], ['', '\n\nd e']]);
});

test('word diff of long texts keeps every word of both and marks a change past the first 1,500 words', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);
  const before = words(6000);
  const after = [...before];
  after[5000] = 'CHANGED';
  const diff = diffWords(before.join(' '), after.join(' '));
  const side = (hide: string) => diff.filter((s) => s.kind !== hide).flatMap((s) => s.text.split(' '));
  assert.deepEqual(side('added'), before, 'the visit column shows the whole visit text');
  assert.deepEqual(side('removed'), after, 'the revisit column shows the whole revisit text');
  assert.deepEqual(diff.filter((s) => s.kind !== 'same'), [{ kind: 'removed', text: 'w5000' }, { kind: 'added', text: 'CHANGED' }]);
  // Two long texts with nothing in common are still shown whole (removed, then added) once the
  // edit search spends its budget of steps (its bound on the work, not a clock: a small one here).
  const apart = diffWords(words(20_000).join(' '), words(20_000).map((w) => `x${w}`).join(' '), 1_000);
  assert.deepEqual(apart.map((s) => s.kind), ['removed', 'added']);
  assert.equal(apart.filter((s) => s.kind === 'removed').flatMap((s) => s.text.split(' ')).length, 20_000);
  assert.equal(apart.filter((s) => s.kind === 'added').flatMap((s) => s.text.split(' ')).length, 20_000);
});

test('word diff of a long page changed near its top and near its bottom marks just those words', () => {
  const before = Array.from({ length: 3000 }, (_, i) => `w${i}`);
  const after = [...before];
  after[10] = 'TOP';
  after[2990] = 'BOTTOM';
  const diff = diffWords(before.join(' '), after.join(' '));
  assert.deepEqual(diff.filter((s) => s.kind !== 'same'), [
    { kind: 'removed', text: 'w10' }, { kind: 'added', text: 'TOP' }, { kind: 'removed', text: 'w2990' }, { kind: 'added', text: 'BOTTOM' },
  ]);
});

test('word diff is a shortest edit: both texts come back whole, and the words kept are a longest common subsequence', () => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const words = (n: number) => Array.from({ length: n }, () => 'abcde'[Math.floor(random() * 5)]!);
  const lcsLength = (a: string[], b: string[]) => {
    const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) t[i]![j] = a[i] === b[j] ? t[i + 1]![j + 1]! + 1 : Math.max(t[i + 1]![j]!, t[i]![j + 1]!);
    return t[0]![0]!;
  };
  for (let round = 0; round < 300; round++) {
    const a = words(Math.floor(random() * 30));
    const b = words(Math.floor(random() * 30));
    const diff = diffWords(a.join(' '), b.join(' '));
    const side = (hide: string) => diff.filter((s) => s.kind !== hide).flatMap((s) => s.text.split(' ')).filter(Boolean);
    assert.deepEqual(side('added'), a);
    assert.deepEqual(side('removed'), b);
    assert.equal(diff.filter((s) => s.kind === 'same').flatMap((s) => s.text.split(' ')).length, lcsLength(a, b), `${a.join('')} → ${b.join('')}`);
  }
});

test('each kind of evidence reads in words, and the revisit heading says why there is no text to compare', () => {
  const evidences = ['not-modified', 'payload-digest', 'main-text-digest', 'shingles', 'out-links', 'content', 'decompression-bomb', 'gone', 'unreachable', 'robots-disallowed', 'robots-unavailable', 'exclude-match'];
  const texts = evidences.map(evidenceText);
  assert.equal(new Set(texts).size, evidences.length, 'one text each');
  for (const [i, text] of texts.entries()) assert.notEqual(text, evidences[i], `${evidences[i]} has words`);
  assert.equal(evidenceText('from-a-later-build'), 'from-a-later-build', 'an unknown code is shown as it is');

  const time = (iso: string) => iso.slice(11, 16);
  const at = '2026-11-28T10:30:00.000Z';
  assert.equal(revisitHeading({ revisitedAt: null, evidence: null, hasText: false }, time), 'Revisit · not made yet');
  assert.equal(revisitHeading({ revisitedAt: at, evidence: 'content', hasText: true }, time), 'Revisit · 10:30');
  assert.equal(revisitHeading({ revisitedAt: at, evidence: 'not-modified', hasText: false }, time), "Revisit · 10:30 · 304 Not Modified: the text is the visit's");
  assert.equal(revisitHeading({ revisitedAt: at, evidence: 'gone', hasText: false }, time), 'Revisit · 10:30 · no text to compare');
  assert.equal(revisitHeading({ revisitedAt: at, evidence: 'robots-disallowed', hasText: false }, time), 'Revisit · not made (10:30): robots.txt now disallows the page');
  assert.equal(revisitHeading({ revisitedAt: at, evidence: 'robots-unavailable', hasText: false }, time), 'Revisit · not made (10:30): robots.txt could not be fetched');
  assert.equal(revisitHeading({ revisitedAt: at, evidence: 'exclude-match', hasText: false }, time), 'Revisit · not made (10:30): an exclude pattern of the crawl matches the page');
});

test('a view with no page says why: not a visit–revisit crawl, nothing captured yet, or a crawl that ended or failed without a page', () => {
  const text = (mode: string, status: string, error: string | null = null) => noCaptureText({ mode, status, error });
  assert.match(text('snapshot', 'finished'), /runs in snapshot mode: its pages are not revisited/);
  assert.match(text('snapshot-organ-pipes', 'running'), /runs in snapshot-organ-pipes mode/);
  for (const status of ['created', 'running', 'paused', 'stopping']) assert.match(text('visit-revisit', status), /^No HTML page captured yet/, status);
  assert.match(text('visit-revisit', 'finished'), /^The crawl ended without capturing any HTML page/);
  assert.match(text('visit-revisit', 'stopped'), /^The crawl ended without capturing any HTML page/);
  assert.equal(text('visit-revisit', 'failed', 'dns: no such host'), 'The crawl failed before it captured any HTML page (dns: no such host): there is nothing to revisit.');
  for (const status of ['running', 'finished', 'failed']) assert.doesNotMatch(text('visit-revisit', status), /mode/, 'a visit–revisit crawl is not told to set the mode it has');
});

test('a page visited after the reference time has its own status in the tree and GraphML, and its revisit heading says why there is none', () => {
  const late: CoherencePageRow = { id: 7, url: 'http://x/late', parentUrl: 'http://x/', depth: 1, mime: 'text/html', status: null, changeRate: null, afterReference: true };
  const roots = buildDiscoveryTree([...rows, late]);
  assert.deepEqual(roots[0]!.children.map((c) => [c.url, c.status]), [['http://x/a', 'links-changed'], ['http://x/b', 'missing'], ['http://x/late', 'after-reference']]);
  assert.equal(roots[1]!.status, 'pending', 'a page not revisited yet stays pending');
  assert.ok(toGraphML([...rows, late]).includes('<data key="status">after-reference</data>'));
  // A status, once classified, wins (the flag is only set on pages without one).
  assert.equal(treeStatusOf({ status: 'unchanged', afterReference: true }), 'unchanged');
  assert.equal(revisitHeading({ revisitedAt: null, evidence: null, hasText: false, afterReference: true }, (iso) => iso), `Revisit · none: ${AFTER_REFERENCE_TEXT}`);
  assert.match(AFTER_REFERENCE_TEXT, /after the reference time — outside this capture's certificate/);
});
