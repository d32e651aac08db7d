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
