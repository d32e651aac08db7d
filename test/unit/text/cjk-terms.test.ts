import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTopicVector } from '../../../worker/analyze/topic-vector';
import { compileEntities } from '../../../worker/analyze';
import { cosine, createTextAnalyzer, termFrequencies, tokenize } from '../../../worker/text';

/**
 * Chinese and Japanese write no spaces between words: a run of letters is a whole clause, so a
 * keyword such as 選挙 (election) never equalled a token of a page about elections, and the
 * focused crawl scored every such page 0. Runs of Han, kana and Hangul are indexed as overlapping
 * character pairs (the CJK bigrams of Lucene's CJKAnalyzer), which a keyword's own pairs meet.
 */
test('tokenize: CJK runs become overlapping character pairs; other scripts keep their words', () => {
  assert.deepEqual(tokenize('東京都知事選挙'), ['東京', '京都', '都知', '知事', '事選', '選挙']);
  assert.deepEqual(tokenize('選挙'), ['選挙']);
  // Kana with the long-vowel mark (a Common-script letter used only with kana) stays in its run.
  assert.deepEqual(tokenize('コーヒー'), ['コー', 'ーヒ', 'ヒー']);
  assert.deepEqual(tokenize('Tokyo東京 2024年の選挙'), ['tokyo', '東京', '年の', 'の選', '選挙']);
  assert.deepEqual(tokenize('선거에서'), ['선거', '거에', '에서']);
  // A lone ideograph is below the minimum length of 2, as any one-letter token is.
  assert.deepEqual(tokenize('米 と'), []);
  assert.deepEqual(tokenize('Привет, café'), ['привет', 'café']);
});

test('a Japanese page about elections is similar to the keyword 選挙, a page about cooking is not', () => {
  const analyzer = createTextAnalyzer();
  const topic = buildTopicVector([], [{ term: '選挙', weight: 2 }, { term: '投票', weight: 1 }], [], { termsOf: (t) => analyzer.terms(t, 'jpn') });
  const similarity = (text: string) => cosine(topic.vector, termFrequencies(analyzer.analyze(text).terms));
  const election = similarity('東京都知事選挙の結果。東京都知事選挙で新しい知事が選ばれました。選挙の投票率は高かったです。');
  const cooking = similarity('今日の料理。美味しいカレーの作り方を紹介します。野菜と肉を煮込みます。料理は楽しいです。');
  assert.ok(election > 0.2, `election page: ${election}`);
  assert.equal(cooking, 0);
});

test('entities: a CJK name is found inside a run of CJK text, a Latin name still only as a whole word', () => {
  const m = compileEntities([{ name: '東京都', aliases: ['トヨタ'] }, { name: 'IPCC' }]);
  assert.deepEqual(m.mentioned('東京都知事選挙の結果'), ['東京都']);
  assert.deepEqual(m.mentioned('トヨタ自動車の発表'), ['東京都']);
  assert.deepEqual(m.mentioned('IPCCの報告書'), ['IPCC']);
  assert.deepEqual(m.mentioned('IPCCX report'), []);
  assert.deepEqual(m.mentioned('京都の寺'), []);
});
