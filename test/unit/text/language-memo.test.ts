import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LanguageMemo, languageSection } from '../../../worker/text';

/** A detector that answers from a script and counts its calls. */
function scripted(answers: string[]): { detect: (text: string) => string; calls: () => number } {
  let n = 0;
  return { detect: () => answers[Math.min(n++, answers.length - 1)], calls: () => n };
}

test('language sections: the host, narrowed by a first path segment that looks like a language tag', () => {
  assert.equal(languageSection('http://news.example/en/2024/tides.html'), 'news.example/en');
  assert.equal(languageSection('https://news.example/fr-CA/'), 'news.example/fr-ca');
  assert.equal(languageSection('https://news.example/de_DE/a'), 'news.example/de_de');
  assert.equal(languageSection('https://news.example/archive/2024'), 'news.example');
  assert.equal(languageSection('https://news.example:8080'), 'news.example:8080');
  assert.equal(languageSection('not a url'), 'not a url');
});

test("a section's language is settled after three agreeing detections; later pages are not detected", () => {
  const d = scripted(['eng']);
  const memo = new LanguageMemo(d.detect);
  for (let i = 0; i < 10; i++) assert.equal(memo.languageOf(`http://a.test/p${i}`, 'text'), 'eng');
  assert.equal(d.calls(), 3);
  assert.equal(memo.settled('http://a.test/other'), 'eng');
  assert.equal(memo.settled('http://b.test/'), undefined);
});

test('disagreeing or undetermined detections do not settle a section; each page is then detected', () => {
  const d = scripted(['eng', 'fra', 'und', 'fra', 'fra', 'fra', 'deu']);
  const memo = new LanguageMemo(d.detect);
  const got = Array.from({ length: 7 }, (_, i) => memo.languageOf(`http://a.test/${i}`, 'text'));
  assert.deepEqual(got, ['eng', 'fra', 'und', 'fra', 'fra', 'fra', 'fra']);
  assert.equal(d.calls(), 5, 'settled by the third fra in a row (und neither breaks nor counts)');
});

test('sections of one host are learnt apart', () => {
  const memo = new LanguageMemo((text) => text, { agreeing: 1 });
  assert.equal(memo.languageOf('http://a.test/en/x', 'eng'), 'eng');
  assert.equal(memo.languageOf('http://a.test/fr/x', 'fra'), 'fra');
  assert.equal(memo.languageOf('http://a.test/en/y', 'ignored'), 'eng');
  assert.equal(memo.languageOf('http://a.test/fr/y', 'ignored'), 'fra');
});
