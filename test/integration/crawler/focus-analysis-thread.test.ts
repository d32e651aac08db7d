import { test } from 'node:test';
import assert from 'node:assert/strict';
import { icdSchema } from '../../../worker/icd/schema';
import { FocusAnalysis } from '../../../worker/crawler/focus-analysis';
import type { CrawlItem } from '../../../worker/crawler/stage';

const focus = (batch = false) =>
  icdSchema.parse({
    name: 'thread',
    seeds: ['http://tides.test/'],
    focus: {
      enabled: true,
      keywords: [{ term: 'harbour', weight: 2 }, { term: 'tide' }],
      topics: ['coastal flooding'],
      urlPatterns: [{ pattern: '/tides/', weight: 0.8 }],
      batch: { enabled: batch, bl: 2 },
    },
  }).focus;

const PROSE = [
  'The harbour master logs every spring tide and the flooding of the coastal road.',
  'Der Hafenmeister notiert jede Springflut und die Überflutung der Küstenstraße.',
  'Recipes for lemon cake, with butter, sugar and a little salt, baked slowly.',
];

/** Pages with prose, links with anchors and contexts, a spam link, a duplicate-free set of URLs. */
function pages(): CrawlItem[] {
  return Array.from({ length: 12 }, (_, i) => {
    const text = `${PROSE[i % 3]} ${PROSE[(i + 1) % 3]}`;
    const links = [
      { url: `http://tides.test/tides/${i}`, kind: 'navigation', anchorText: 'spring tide table', context: PROSE[0], source: 'a@href' },
      { url: `http://tides.test/cake/${i}`, kind: 'navigation', anchorText: 'lemon cake', context: PROSE[2], source: 'a@href' },
      { url: `http://casino-bonus.test/${i}`, kind: 'navigation', anchorText: 'win', context: '', source: 'a@href' },
    ];
    return { url: `http://tides.test/${i % 2 ? 'de/' : ''}p${i}`, host: 'tides.test', depth: 1, priority: 0, lease: null, text, links } as unknown as CrawlItem;
  });
}

async function scoreAll(analysis: FocusAnalysis): Promise<CrawlItem[]> {
  const items = pages();
  // Given all at once, as a crawl with many pages in flight does: order must still be kept.
  await Promise.all(items.map((item) => analysis.analyse(item)));
  await analysis.close();
  return items;
}

const verdicts = (items: CrawlItem[]) =>
  items.map((i) => ({ similarity: i.similarity, links: i.links!.map((l) => ({ url: l.url, priority: l.priority, breakdown: l.breakdown, excluded: l.excludedReason })) }));

test('pages scored on the analysis thread get exactly what scoring in the crawl thread gives', async (t) => {
  const errors: string[] = [];
  t.mock.method(console, 'error', (msg: string) => errors.push(msg));
  for (const batch of [false, true]) {
    const local = verdicts(await scoreAll(FocusAnalysis.create(focus(batch), [], { thread: false })));
    const threaded = verdicts(await scoreAll(FocusAnalysis.create(focus(batch), [], { thread: true })));
    assert.deepEqual(threaded, local, `batch ${batch}`);
    assert.ok(local.some((p) => p.links[0]!.priority! > p.links[1]!.priority!), 'the tide link outranks the cake link');
    assert.ok(local.every((p) => p.links[2]!.excluded === 'spam'), 'the casino link is spam');
    assert.ok(local.every((p) => p.links[0]!.breakdown!.scores.urlPattern! > 0), 'the URL pattern module scored /tides/');
  }
  assert.deepEqual(errors, [], 'the thread did the scoring (no fallback)');
});

test('a thread that cannot start leaves the scoring to the crawl thread: nothing is lost', async (t) => {
  const saved = process.env.TIDEMARK_ANALYSIS_THREAD_ENTRY;
  process.env.TIDEMARK_ANALYSIS_THREAD_ENTRY = '/nonexistent/analysis-thread.mjs';
  const errors: string[] = [];
  t.mock.method(console, 'error', (msg: string) => errors.push(msg));
  try {
    const items = await scoreAll(FocusAnalysis.create(focus(), [], { thread: true }));
    const local = verdicts(await scoreAll(FocusAnalysis.create(focus(), [], { thread: false })));
    assert.deepEqual(verdicts(items), local);
    assert.equal(errors.length, 1, 'one warning, then the crawl thread scores');
    assert.match(errors[0]!, /analysis thread failed: .*analysis-thread\.mjs.*crawl's thread/s);
  } finally {
    if (saved === undefined) delete process.env.TIDEMARK_ANALYSIS_THREAD_ENTRY;
    else process.env.TIDEMARK_ANALYSIS_THREAD_ENTRY = saved;
  }
});
