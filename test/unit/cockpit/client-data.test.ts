import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elapsedLabel, elapsedTicks, layoutLines, layoutStack } from '../../../app/lib/client/chart-layout';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { appendSample, applyCaptures, captureCountOf, capturesOf, connectErrorState, mergeRelevance, withHistory } from '../../../app/lib/client/live';
import { normaliseAdaptedRule, normaliseTestResult } from '../../../app/lib/client/aah';
import { selectionFromForm } from '../../../app/lib/client/queries';
import { typedPage } from '../../../app/components/pager';

test('the charts show the stored history up to the first live sample, then the live samples', () => {
  const point = (at: number, fetched: number) => ({ at, pagesPerSecond: 1, fetched, statusClasses: { '2xx': fetched } });
  const history = [point(0, 0), point(1000, 5), point(2000, 9), point(3000, 12)];
  assert.deepEqual(withHistory(history, [point(2500, 11), point(3500, 14)]).map((p) => p.at), [0, 1000, 2000, 2500, 3500]);
  assert.deepEqual(withHistory(history, []), history, 'a finished crawl: its history alone');
  assert.deepEqual(withHistory([], [point(10, 1)]).map((p) => p.at), [10], 'no history yet: live only');
});

test('the export form gives a selection only when a filter is filled in, one entry per line', () => {
  const empty = { hosts: '', mimeTypes: '', statusClasses: [] as string[], urlContains: '', coherence: [] as string[] };
  assert.equal(selectionFromForm(empty), undefined, 'the whole crawl');
  assert.equal(selectionFromForm({ ...empty, hosts: ' \n \n', urlContains: '  ' }), undefined, 'blank lines are no filter');
  assert.deepEqual(selectionFromForm({ hosts: 'a.example\n\n b.example:8080 \n', mimeTypes: 'text/html\r\nimage/', statusClasses: ['2xx'], urlContains: ' /news/ ', coherence: ['unchanged'] }), {
    hosts: ['a.example', 'b.example:8080'], mimeTypes: ['text/html', 'image/'], statusClasses: ['2xx'], urlContains: '/news/', coherence: ['unchanged'],
  });
  // Requisites: sent once ticked or cleared, and only with a filter (the whole crawl holds them all).
  assert.deepEqual(selectionFromForm({ ...empty, urlContains: '/news/', requisites: null }), { urlContains: '/news/' });
  assert.deepEqual(selectionFromForm({ ...empty, urlContains: '/news/', requisites: false }), { urlContains: '/news/', requisites: false });
  assert.equal(selectionFromForm({ ...empty, requisites: true }), undefined);
});

test('capture events are read as a bare list or as the server\'s batched {captures}', () => {
  const c = { id: 1, url: 'http://a/', status: 200, mime: 'text/html', size: 10, fetchedAt: '2026-01-01T00:00:00Z' };
  assert.deepEqual(capturesOf([c]), [c]);
  assert.deepEqual(capturesOf({ captures: [c, { nonsense: true }] }), [c]);
  assert.deepEqual(capturesOf(null), []);
});

test('a relevance event replaces the series, or adds one point in document order', () => {
  const whole = mergeRelevance(undefined, { points: [{ documents: 4, meanSimilarity: 0.2, normalised: 1, harvestRatio: 0.25 }], harvestRatio: 0.25 });
  assert.equal(whole?.points.length, 1);
  const added = mergeRelevance(whole, { documents: 8, meanSimilarity: 0.1, harvestRatio: 0.2 });
  assert.deepEqual(added?.points.map((p) => p.documents), [4, 8]);
  assert.equal(mergeRelevance(added, 'garbage'), added);
});

test('line layout: points map into the plot area, y from 0, one path per series', () => {
  const l = layoutLines([{ key: 'a', label: 'a', colour: '#000', points: [[0, 0], [10, 5]] }], { width: 200, height: 100 });
  assert.equal(l.paths.length, 1);
  assert.match(l.paths[0]!.d, /^M48,72L184,/);
  assert.ok(l.yTicks.some((t) => t.value === 0));
  const flat = layoutLines([{ key: 'a', label: 'a', colour: '#000', points: [[3, 1]] }], { width: 200, height: 100 });
  assert.ok(Number.isFinite(flat.paths[0]!.last![0]));
});

test('elapsed-time ticks fall on whole steps from the start and never read the same twice', () => {
  const start = 1_700_000_000_123;
  const label = elapsedLabel(start);
  const labels = (to: number) => elapsedTicks(start, start, start + to, 6).map(label);
  assert.deepEqual(labels(3700), ['0:00', '0:01', '0:02', '0:03'], 'a 3.7 s crawl: one tick a second');
  assert.deepEqual(labels(95_000), ['0:00', '0:30', '1:00', '1:30']);
  assert.deepEqual(labels(5 * 3600_000), ['0:00', '1:00:00', '2:00:00', '3:00:00', '4:00:00', '5:00:00']);
  for (const to of [1, 999, 12_345, 700_000, 9_000_000, 40 * 86400_000]) {
    const ticks = elapsedTicks(start, start, start + to, 6);
    assert.ok(ticks.length <= 7 && ticks.length >= 1, `${to}: ${ticks.length} ticks`);
    assert.equal(new Set(ticks.map(label)).size, ticks.length, `${to}: distinct labels`);
    assert.ok(ticks.every((t) => t >= start && t <= start + to));
  }
  // Given to a layout, they are its x ticks.
  const l = layoutLines([{ key: 'a', label: 'a', colour: '#000', points: [[start, 0], [start + 3700, 5]] }], { width: 200, height: 100, xTicks: elapsedTicks(start, start, start + 3700, 6), xFormat: label });
  assert.deepEqual(l.xTicks.map((t) => t.label), ['0:00', '0:01', '0:02', '0:03']);
});

test('stacked areas sum the classes: the top layer ends at the total', () => {
  const s = layoutStack([{ x: 0, values: { '2xx': 1 } }, { x: 1, values: { '2xx': 3, '4xx': 1 } }], ['2xx', '4xx'], {}, { width: 200, height: 100 });
  assert.deepEqual(s.areas.map((a) => a.key), ['2xx', '4xx']);
  assert.ok(s.areas.every((a) => a.d.startsWith('M')));
  assert.ok(s.yTicks.some((t) => t.value === 4));
});

test('a chart says its values in words: each line’s latest and highest point, the top of the stack', () => {
  const lines = layoutLines(
    [
      { key: 'a', label: 'pages/s', colour: '#000', points: [[0, 1], [1000, 4.25], [2000, 2]] },
      { key: 'b', label: 'empty', colour: '#000', points: [] },
    ],
    { width: 200, height: 100, xFormat: elapsedLabel(0), yFormat: (v) => v.toFixed(1) },
  );
  assert.equal(lines.description, 'pages/s: latest 2.0 at 0:02, highest 4.3 at 0:01.');
  assert.equal(layoutLines([], { width: 200, height: 100 }).description, 'No data yet.');
  const stack = layoutStack([{ x: 0, values: { '2xx': 1 } }, { x: 1000, values: { '2xx': 3, '4xx': 1 } }], ['2xx', '4xx'], {}, { width: 200, height: 100, xFormat: elapsedLabel(0) });
  assert.equal(stack.description, 'at 0:01: 2xx 3, 4xx 1.');
});

test('the AAH tester report is read grouped, or grouped from a flat PageAnalysis', () => {
  const flat = normaliseTestResult({
    application: { id: 'phpbb', name: 'phpBB' },
    level: 'terminal',
    follow: [{ url: 'http://f/1', rule: 'phpbb/terminal/topic-pages' }, { url: 'http://f/2', rule: 'phpbb/terminal/topic-pages' }],
    doNotFollow: [{ url: 'http://f/login', rule: 'phpbb/*/login' }],
    objects: [{ type: 'post', fields: { title: 't' }, rule: 'phpbb/terminal/post' }],
  });
  assert.deepEqual(flat.navigation, [
    { rule: 'phpbb/terminal/topic-pages', follow: true, links: ['http://f/1', 'http://f/2'] },
    { rule: 'phpbb/*/login', follow: false, links: ['http://f/login'] },
  ]);
  assert.deepEqual(flat.extraction, [{ rule: 'phpbb/terminal/post', objects: [{ type: 'post', fields: { title: 't' } }] }]);
  assert.deepEqual(flat.errors, []);
  assert.equal(flat.skipped, undefined);
  // A page the AAH left alone says so: before, the tester showed only "none detected".
  assert.equal(normaliseTestResult({ application: null, level: null, navigation: [], extraction: [], errors: [], skipped: 'too-slow' }).skipped, 'too-slow');
});

test('an adapted rule is read from a stored row with its provenance JSON', () => {
  const rule = normaliseAdaptedRule({
    id: 7,
    crawlId: 3,
    application: 'phpbb',
    originalRule: 'phpbb/terminal/post',
    expression: JSON.stringify({ select: "//div[contains(@class,'entry')]", fields: { title: './/div' } }),
    provenance: JSON.stringify({ original: { select: '//div[@class="post"]', fields: { title: './/h3' } }, mutations: ["object: 'post' → 'entry'"], generatedOn: 'http://f/1', validatedOn: ['http://f/2', 'http://f/3', 'http://f/4'] }),
    status: 'pending',
    createdAt: '2026-01-01T00:00:00Z',
  });
  assert.equal(rule.id, '7');
  assert.equal(rule.applicationId, 'phpbb');
  assert.equal(rule.adapted.fields.title, './/div');
  assert.equal(rule.original?.fields.title, './/h3');
  assert.equal(rule.validatedOn.length, 3);
  assert.equal(rule.acceptedAt, '2026-01-01T00:00:00Z');
});

test('the knowledge-base outline lists applications, levels and actions by line, even while the XML is broken', async () => {
  const { outlineKnowledgeBase } = await import('../../../app/knowledge-base/kb-outline');
  const xml = [
    '<knowledge-base>',
    '  <application id="phpbb" name="phpBB" category="forum">',
    '    <level type="terminal">',
    '      <extract id="post" type="post" select="//div[',
    '    </level>',
    '    <navigate id="login" follow="false" select="//a"/>',
    '  </application>',
  ].join('\n');
  assert.deepEqual(outlineKnowledgeBase(xml), [
    { line: 2, column: 3, depth: 0, kind: 'application', label: 'phpBB (forum)' },
    { line: 3, column: 5, depth: 1, kind: 'level', label: 'terminal pages' },
    { line: 4, column: 7, depth: 2, kind: 'extract', label: 'post — extracts post' },
    { line: 6, column: 5, depth: 1, kind: 'navigate', label: 'login — do not follow' },
  ]);
});

test('two identical rules on one line get outline keys of their own (React keys were line:kind:label, the same twice)', async () => {
  const { outlineEntryKey, outlineKnowledgeBase } = await import('../../../app/knowledge-base/kb-outline');
  const rule = '<navigate id="login" follow="false" select="//a"/>';
  const xml = `<knowledge-base><application id="a" name="A" category="blog">${rule}${rule}</application><application id="a" name="A" category="blog"></application></knowledge-base>`;
  const outline = outlineKnowledgeBase(xml);
  assert.equal(outline.length, 4);
  assert.equal(new Set(outline.map(outlineEntryKey)).size, outline.length);
});

test('while captures arrive, a sorted list on screen (the most relevant captures) is read again, a few seconds apart', async () => {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const key = ['crawls', 7, 'captures', { page: 1, q: '', sort: 'score' }];
  let reads = 0;
  const observer = new QueryObserver(client, { queryKey: key, queryFn: async () => ({ items: [], total: ++reads, page: 1, pageSize: 10 }) });
  const unsubscribe = observer.subscribe(() => undefined);
  try {
    const settle = () => new Promise((r) => setTimeout(r, 20));
    await settle();
    assert.equal(reads, 1, 'the first read');
    const capture = { id: 1, url: 'http://a/', status: 200, mime: 'text/html', size: 1, fetchedAt: '2026-01-01T00:00:00Z' };
    applyCaptures(client, 7, [capture]);
    await settle();
    assert.equal(reads, 2, 'read again: where new captures rank only the server knows (it stayed as first read)');
    applyCaptures(client, 7, [{ ...capture, id: 2 }]);
    await settle();
    assert.equal(reads, 2, `not again within ${3_000} ms`);
    assert.equal(client.getQueryState(key)?.isInvalidated, true, 'but marked stale');
  } finally {
    unsubscribe();
    client.clear();
  }
});

test('the first page of captures counts every capture an event stands for, also those it does not carry', () => {
  const client = new QueryClient();
  const key = ['crawls', 7, 'captures', { page: 1, q: '', sort: '', upTo: null }];
  const row = (id: number) => ({ id, url: `http://a/${id}`, status: 200, mime: 'text/html', size: 1, fetchedAt: '2026-01-01T00:00:00Z' });
  client.setQueryData(key, { items: [row(2), row(1)], total: 2, page: 1, pageSize: 20 });
  // The server's batch: the newest 50 of 1,200 captures made in half a second.
  const payload = { captures: Array.from({ length: 50 }, (_, k) => row(1153 + k)), count: 1200 };
  const sent = capturesOf(payload);
  assert.equal(captureCountOf(payload, sent.length), 1200);
  applyCaptures(client, 7, sent, captureCountOf(payload, sent.length));
  const page = client.getQueryData<{ items: { id: number }[]; total: number }>(key)!;
  assert.equal(page.total, 1202);
  assert.deepEqual(page.items.map((c) => c.id), Array.from({ length: 20 }, (_, k) => 1202 - k), 'newest first, one page');
  // The same event again (the page was read again meanwhile): nothing is counted twice.
  applyCaptures(client, 7, sent, 1200);
  assert.equal(client.getQueryData<{ total: number }>(key)!.total, 1202);
  // A bare list, or a count below what it holds, counts what it holds.
  assert.equal(captureCountOf([row(1), row(2)], 2), 2);
  assert.equal(captureCountOf({ captures: [row(1)], count: 0 }, 1), 1);
  assert.equal(captureCountOf({ captures: [row(1)], count: 'x' }, 1), 1);
  client.clear();
});

test('an hour of live samples, one a second, is kept whole, coarser: the chart is not cut to its last ten minutes', () => {
  const client = new QueryClient();
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  for (let s = 0; s <= 3600; s++) {
    appendSample(client, 3, { fetched: s * 10, pagesPerSecond: 10, statusClasses: { '2xx': s * 10 }, updatedAt: new Date(t0 + s * 1000).toISOString() });
  }
  const samples = client.getQueryData<{ at: number }[]>(['crawls', 3, 'stats-history'])!;
  assert.ok(samples.length <= 600, `${samples.length} samples kept`);
  assert.equal(samples[0]!.at, t0, 'from the first sample');
  assert.equal(samples.at(-1)!.at, t0 + 3_600_000, 'to the latest');
  const widest = Math.max(...samples.slice(1).map((s, i) => s.at - samples[i]!.at));
  assert.ok(widest <= 30_000, `no gap wider than two steps of an even spread (12 s): ${widest} ms`);
  client.clear();
});

test('captures that arrive while the first page is being read again are not lost when the read ends', async () => {
  const client = new QueryClient();
  const key = ['crawls', 7, 'captures', { page: 1, q: '', sort: '', upTo: null }];
  const row = (id: number) => ({ id, url: `http://a/${id}`, status: 200, mime: 'text/html', size: 1, fetchedAt: '2026-01-01T00:00:00Z' });
  // The server's captures; a read answers what was stored when it began, some time later.
  const stored = [row(1), row(2)];
  let reads = 0;
  const observer = new QueryObserver(client, {
    queryKey: key,
    queryFn: async () => {
      reads++;
      const page = { items: [...stored].reverse().slice(0, 20), total: stored.length, page: 1, pageSize: 20 };
      await new Promise((r) => setTimeout(r, 50));
      return page;
    },
  });
  const unsubscribe = observer.subscribe(() => undefined);
  try {
    await new Promise((r) => setTimeout(r, 80));
    // A status change reads the page again; meanwhile capture 3 is stored and its event arrives.
    void client.invalidateQueries({ queryKey: key });
    await new Promise((r) => setTimeout(r, 10));
    stored.push(row(3));
    applyCaptures(client, 7, [row(3)]);
    await new Promise((r) => setTimeout(r, 150));
    const page = client.getQueryData<{ items: { id: number }[]; total: number }>(key)!;
    assert.deepEqual(page.items.map((c) => c.id), [3, 2, 1]);
    assert.equal(page.total, 3);
    assert.ok(reads <= 3, `${reads} reads`);
  } finally {
    unsubscribe();
    client.clear();
  }
});

test('a typed page number goes to that page, kept within the pages there are; anything else goes nowhere', () => {
  assert.equal(typedPage('500', 1001), 500);
  assert.equal(typedPage(' 7 ', 10), 7);
  assert.equal(typedPage('5000', 1001), 1001, 'past the end: the last page');
  assert.equal(typedPage('0', 10), 1);
  for (const text of ['', 'x', '2.5', '-3', '1e3']) assert.equal(typedPage(text, 10), null, text);
});

test('a refused socket: its session ended, refused for another reason (socket.io gives up), or offline while socket.io reconnects', () => {
  assert.equal(connectErrorState('unauthenticated', false), 'session-ended');
  assert.equal(connectErrorState('unauthenticated', true), 'session-ended');
  assert.equal(connectErrorState('cross-site socket refused', false), 'refused');
  assert.equal(connectErrorState('websocket error', true), 'offline');
});
