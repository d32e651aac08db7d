import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineGranularities, createPageAnalyzer, type PageInput } from '../../../worker/analyze';
import { createTextAnalyzer, DocumentFrequencies } from '../../../worker/text';

function analyzer() {
  const text = createTextAnalyzer({ language: 'eng' });
  const topicVector = new Map([['glacier', 1], ['ice', 0.8], ['melt', 0.6], ['greenland', 0.5]]);
  return createPageAnalyzer({ topicVector, analyzer: text, documentFrequencies: new DocumentFrequencies(), includeDefaultBlacklist: false });
}

test('a link in a matching paragraph outranks the same link text in an unrelated paragraph', () => {
  const page: PageInput = {
    url: 'https://news.example/a',
    text: 'Glaciers melt. The ice of Greenland. Also: football results and bread recipes.',
    links: [
      { url: 'https://news.example/near', anchorText: 'read more', context: 'Greenland glaciers melt and lose ice faster every year. read more' },
      { url: 'https://news.example/far', anchorText: 'read more', context: 'Football results from the weekend and a bread recipe. read more' },
    ],
  };
  const result = analyzer().analyze(page);
  const [near, far] = result.links;
  assert.ok(near!.text.paragraph! > far!.text.paragraph!);
  assert.equal(near!.text.document, far!.text.document, 'same page, same document similarity');
  assert.ok(near!.priority > far!.priority, `${near!.priority} > ${far!.priority}`);
  assert.deepEqual(Object.keys(near!.breakdown.scores).sort(), ['spam', 'text']);
});

test('the document score propagates: the same link ranks higher on an on-topic page', () => {
  const a = analyzer();
  const link = { url: 'https://x.example/', anchorText: 'next page', context: 'next page' };
  const onTopic = a.analyze({ url: 'https://x.example/1', text: 'Greenland glaciers melt; sea ice thins.', links: [link] });
  const offTopic = a.analyze({ url: 'https://x.example/2', text: 'The best bread recipes for a sunny weekend.', links: [link] });
  assert.ok(onTopic.similarity > offTopic.similarity);
  assert.ok(onTopic.links[0]!.priority > offTopic.links[0]!.priority);
});

test('anchor text counts: a matching anchor beats a generic one in the same paragraph', () => {
  const context = 'Further reading on this page.';
  const r = analyzer().analyze({
    url: 'https://x.example/', text: 'Some page about many things.',
    links: [{ url: 'https://x.example/g', anchorText: 'glacier melt', context }, { url: 'https://x.example/c', anchorText: 'contact', context }],
  });
  assert.ok(r.links[0]!.priority > r.links[1]!.priority);
});

test('missing granularities are left out rather than counted as zero', () => {
  assert.equal(combineGranularities(0.5, undefined, undefined).score, 0.5);
  const all = combineGranularities(0.5, 1, 0);
  assert.ok(Math.abs(all.score - (0.4 * 0.5 + 0.4 * 1) / 1) < 1e-12);
});

test('score() gives analyze()\'s verdicts exactly, page after page, without the vectors', () => {
  const withVectors = analyzer();
  const withoutVectors = analyzer();
  const pages: PageInput[] = [
    {
      url: 'https://news.example/1',
      text: 'Greenland glaciers melt and the sea ice thins. Glaciers retreat every summer.',
      links: [
        { url: 'https://news.example/a', anchorText: 'glacier melt', context: 'Greenland glaciers melt and the sea ice thins.' },
        { url: 'https://news.example/b', anchorText: 'read more', context: 'Greenland glaciers melt and the sea ice thins.' },
        { url: 'https://news.example/c', anchorText: '', context: '' },
        { url: 'https://news.example/d', kind: 'image' },
        { url: 'https://news.example/e', anchorText: 'the', context: 'and the of' },
      ],
    },
    {
      url: 'https://news.example/2',
      text: 'Bread recipes, football results and a glacier.',
      links: [
        { url: 'https://news.example/f', anchorText: 'ice', context: 'Bread recipes and football results, one glacier.', aahBonus: 0.5 },
        { url: 'https://news.example/g', anchorText: 'bread', context: 'Ice glacier melt Greenland sea ice glacier fjord bread toast butter.' },
      ],
    },
    { url: 'https://news.example/3', text: '', links: [{ url: 'https://news.example/h', anchorText: 'glacier', context: 'glacier' }] },
  ];
  for (const page of pages) {
    const full = withVectors.analyze(page);
    const scored = withoutVectors.score(page);
    assert.equal(scored.similarity, full.similarity, page.url);
    assert.equal(scored.language, full.language);
    assert.deepEqual(scored.document, full.document);
    assert.equal(scored.links.length, full.links.length);
    full.links.forEach((link, i) => {
      const { anchorVector, paragraphVector, ...verdict } = link;
      assert.deepEqual(scored.links[i], verdict, `${page.url} → ${link.url}`);
      assert.ok(!('anchorVector' in scored.links[i]!) && !('paragraphVector' in scored.links[i]!));
      void anchorVector;
      void paragraphVector;
    });
  }
  assert.ok(pages.length === 3 && withVectors.analyze(pages[0]!).similarity > 0, 'the pages do score');
});
