import { test } from 'node:test';
import assert from 'node:assert/strict';
import { icdSchema } from '../../../worker/icd/schema';
import { FocusAnalysis } from '../../../worker/crawler/focus-analysis';
import type { CrawlItem } from '../../../worker/crawler/stage';

const icd = (batch = false) =>
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
  });

const PROSE = [
  'The harbour master logs every spring tide and the flooding of the coastal road.',
  'Der Hafenmeister notiert jede Springflut und die Überflutung der Küstenstraße.',
  'Recipes for lemon cake, with butter, sugar and a little salt, baked slowly.',
];

/**
 * HTML pages as the extract stage leaves them (decoded text and body): links without anchor texts
 * or contexts (its pass collects none), one of them added by the AAH with its own (not in the
 * HTML), and a spam link.
 */
function pages(): CrawlItem[] {
  return Array.from({ length: 12 }, (_, i) => {
    const url = `http://tides.test/${i % 2 ? 'de/' : ''}p${i}`;
    const htmlText = `<html><head><title>Page ${i}</title></head><body><nav><a href="/">Home</a></nav><article>
      <p>${PROSE[i % 3]} See the <a href="/tides/${i}">spring tide table</a> for the harbour.</p>
      <p>${PROSE[(i + 1) % 3]} Or bake the <a href="/cake/${i}">lemon cake</a>.</p>
      <p><a href="http://casino-bonus.test/${i}">win</a></p></article></body></html>`;
    const link = (href: string, extra: object = {}) => ({ url: href, kind: 'navigation', anchorText: '', context: '', source: 'a@href', ...extra });
    const links = [
      link(`http://tides.test/tides/${i}`),
      link(`http://tides.test/cake/${i}`),
      link(`http://casino-bonus.test/${i}`),
      link(`http://tides.test/aah/${i}`, { anchorText: 'harbour tide archive', aahBonus: 0.9 }),
    ];
    // The body stays on the item: a page the thread failed with is decoded from it again.
    const exchange = { headers: { 'content-type': 'text/html; charset=utf-8' } };
    return { url, host: 'tides.test', depth: 1, priority: 0, lease: null, htmlText, html: Buffer.from(htmlText), exchange, links } as unknown as CrawlItem;
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
  items.map((i) => ({ similarity: i.similarity, links: i.links!.map((l) => ({ url: l.url, priority: l.priority, breakdown: l.breakdown && JSON.parse(l.breakdown), excluded: l.excludedReason })) }));

test('pages scored on the analysis thread get exactly what scoring in the crawl thread gives', async (t) => {
  const errors: string[] = [];
  t.mock.method(console, 'error', (msg: string) => errors.push(msg));
  for (const batch of [false, true]) {
    const local = verdicts(await scoreAll(FocusAnalysis.create(icd(batch), [], { thread: false })));
    const threaded = verdicts(await scoreAll(FocusAnalysis.create(icd(batch), [], { thread: true })));
    assert.deepEqual(threaded, local, `batch ${batch}`);
    assert.ok(local.some((p) => p.links[0]!.priority! > p.links[1]!.priority!), 'the tide link outranks the cake link');
    assert.ok(local.every((p) => p.links[2]!.excluded === 'spam'), 'the casino link is spam');
    assert.ok(local.every((p) => p.links[0]!.breakdown!.scores.urlPattern! > 0), 'the URL pattern module scored /tides/');
    assert.ok(local.every((p) => p.links[3]!.breakdown!.scores.aah === 0.9), "the AAH's bonus took part");
    assert.ok(local.every((p) => p.links[3]!.breakdown!.scores.text! > 0), "the AAH link's own anchor text was read");
    assert.ok(local.every((p) => p.similarity! > 0), 'the main text was read from the HTML');
  }
  assert.deepEqual(errors, [], 'the thread did the scoring (no fallback)');
});

test('a thread that cannot start leaves the scoring to the crawl thread: nothing is lost', async (t) => {
  const saved = process.env.TIDEMARK_ANALYSIS_THREAD_ENTRY;
  process.env.TIDEMARK_ANALYSIS_THREAD_ENTRY = '/nonexistent/analysis-thread.mjs';
  const errors: string[] = [];
  t.mock.method(console, 'error', (msg: string) => errors.push(msg));
  try {
    const items = await scoreAll(FocusAnalysis.create(icd(), [], { thread: true }));
    const local = verdicts(await scoreAll(FocusAnalysis.create(icd(), [], { thread: false })));
    assert.deepEqual(verdicts(items), local);
    assert.equal(errors.length, 1, 'one warning, then the crawl thread scores');
    assert.match(errors[0]!, /analysis thread failed: .*analysis-thread\.mjs.*crawl's thread/s);
  } finally {
    if (saved === undefined) delete process.env.TIDEMARK_ANALYSIS_THREAD_ENTRY;
    else process.env.TIDEMARK_ANALYSIS_THREAD_ENTRY = saved;
  }
});

test('links whose URL can no longer matter are marked unscored and leave the others as they were', async () => {
  const all = verdicts(await scoreAll(FocusAnalysis.create(icd(), [], { thread: true })));
  const analysis = FocusAnalysis.create(icd(), [], { thread: true });
  const items = pages();
  const left = (url: string) => url.includes('/cake/'); // say every cake page was fetched already
  await Promise.all(items.map((item) => analysis.analyse(item, (url) => !left(url))));
  await analysis.close();
  for (const [k, item] of items.entries()) {
    for (const [j, link] of item.links!.entries()) {
      if (left(link.url)) {
        assert.equal(link.unscored, true);
        assert.equal(link.priority, undefined);
      } else {
        assert.equal(link.unscored, undefined);
        assert.equal(link.priority, all[k]!.links[j]!.priority, 'the other links score as before');
      }
    }
    assert.equal(item.similarity, all[k]!.similarity);
  }
});
