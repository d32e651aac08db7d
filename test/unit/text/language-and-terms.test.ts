import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTextAnalyzer, detectLanguage, languageInfo, tokenize } from '../../../worker/text';

test('tokenize: NFKC, lower case, Unicode letters only, short tokens dropped', () => {
  assert.deepEqual(tokenize('Ｆｕｌｌwidth CAFÉ, naïve — 42 x Œuvre'), ['fullwidth', 'café', 'naïve', 'œuvre']);
  assert.deepEqual(tokenize('Привет, мир! Δελτίο'), ['привет', 'мир', 'δελτίο']);
  // The decomposed é (e + combining acute) normalises to the same token as the composed one.
  assert.deepEqual(tokenize('cafe\u0301'), ['café']);
});

test('tokenize: ASCII text (the fast path) splits like the Unicode path', () => {
  const ascii = "It's a TIDE-mark: 42x harbours,\tcharts\nand o'clock";
  assert.deepEqual(tokenize(ascii), ['it', 'tide', 'mark', 'harbours', 'charts', 'and', 'clock']);
  // One non-ASCII letter sends the whole text down the Unicode path: same tokens plus that word.
  assert.deepEqual(tokenize(`${ascii} café`), [...tokenize(ascii), 'café']);
  assert.deepEqual(tokenize('x y z', 1), ['x', 'y', 'z']);
  assert.deepEqual(tokenize('ends with word'), ['ends', 'with', 'word']);
});

test('language detection recognises English, German and French prose', () => {
  const analyzer = createTextAnalyzer();
  const cases: [string, string][] = [
    ['The oceans are rising faster than predicted, scientists warned on Monday in London.', 'eng'],
    ['Die Ozeane steigen schneller als vorhergesagt, warnten Wissenschaftler am Montag in Berlin.', 'deu'],
    ['Les océans montent plus vite que prévu, ont averti les scientifiques lundi à Paris.', 'fra'],
  ];
  for (const [text, lang] of cases) assert.equal(analyzer.analyze(text).language.iso6393, lang, text);
  assert.equal(detectLanguage('hi'), 'und');
});

test('stop words removed and words stemmed per language', () => {
  const analyzer = createTextAnalyzer();
  const en = analyzer.analyze('The glaciers are melting and the oceans were rising', 'eng');
  assert.deepEqual(en.terms, ['glacier', 'melt', 'ocean', 'rise']);
  assert.equal(en.language.stemmer, 'english');
  const de = analyzer.analyze('Die Gletscher schmelzen und die Ozeane steigen', 'deu');
  assert.deepEqual(de.terms, ['gletsch', 'schmelz', 'ozean', 'steig']);
});

test('a language without a stemmer still loses its stop words and keeps whole words', () => {
  const info = languageInfo('pol', new Set(['pol']));
  assert.equal(info.stemmer, undefined);
  assert.equal(info.stopwordKey, 'pol');
  const analyzer = createTextAnalyzer();
  const terms = analyzer.terms('oraz lodowce topnieją', 'pol');
  assert.deepEqual(terms, ['lodowce', 'topnieją']);
});

test('undetermined language falls back to the configured default', () => {
  const analyzer = createTextAnalyzer({ fallbackLanguage: 'eng' });
  const out = analyzer.analyze('Glaciers');
  assert.equal(out.language.iso6393, 'eng');
  assert.deepEqual(out.terms, ['glacier']);
});
