import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analysisConfigFromFocus, createPageAnalyzer } from '../../../worker/analyze';
import { parseIcd } from '../../../worker/icd/schema';
import { createTextAnalyzer, DocumentFrequencies } from '../../../worker/text';

test('a parsed ICD focus section configures the analysis (topic terms, patterns, blacklist, entities, weights)', () => {
  const icd = parseIcd({
    name: 'Glaciers', seeds: ['https://news.example/'],
    focus: {
      enabled: true,
      topicTerms: { glacier: 1, ice: 0.5 },
      urlPatterns: [{ pattern: '/climate/', weight: 1 }],
      blacklist: ['spam.example'],
      entities: [{ name: 'IPCC', type: 'organisation' }],
      moduleWeights: { text: 1, urlPattern: 0.5, spam: 0, entity: 0.5, aah: 0 },
    },
  });
  const analyzer = createPageAnalyzer(analysisConfigFromFocus(icd.focus, { analyzer: createTextAnalyzer(), documentFrequencies: new DocumentFrequencies() }));
  const r = analyzer.analyze({
    url: 'https://news.example/', text: 'Glaciers and sea ice are melting, says the IPCC.',
    links: [
      { url: 'https://news.example/climate/1', anchorText: 'IPCC on glaciers', context: 'IPCC on glaciers' },
      { url: 'https://news.example/sport/1', anchorText: 'match report', context: 'match report' },
      { url: 'https://www.spam.example/glacier', anchorText: 'glacier', context: 'glacier' },
    ],
  });
  assert.equal(r.language, 'eng');
  const [climate, sport, spam] = r.links;
  assert.deepEqual(climate!.breakdown.weights, { text: 1, urlPattern: 0.5, entity: 0.5 });
  assert.equal(climate!.breakdown.scores.urlPattern, 1);
  assert.ok(climate!.priority > sport!.priority);
  assert.equal(spam!.excluded, 'spam');
});
