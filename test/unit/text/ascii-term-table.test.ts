import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AsciiTermTable } from '../../../worker/text/ascii-term-table';
import { createTextAnalyzer } from '../../../worker/text';
import { tokenize } from '../../../worker/text/tokenize';
import { mulberry32 } from '../../../bench/support/mulberry32';

/** The reference: tokens one by one, each mapped to its term and counted in order. */
function countedOneByOne(text: string, termOf: (t: string) => string, minLength = 2): [string, number][] {
  const counts = new Map<string, number>();
  for (const token of tokenize(text, minLength)) {
    const term = termOf(token);
    if (term) counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return [...counts];
}

const toyTerm = (t: string) => (t === 'the' || t === 'of' ? '' : t.replace(/s$/, ''));

test('ASCII term counts equal counting token by token, in first-occurrence order', () => {
  const table = new AsciiTermTable(toyTerm, 2, 100_000);
  for (const text of [
    'The Harbours of the harbour; HARBOUR-master, 12 harbours.',
    'a b cc ddd a-b x1y2 z',
    '',
    '   \n\t!!',
    'endsinaword',
    'MiXeD CaSe mixed case Mixed',
  ]) {
    assert.deepEqual([...table.count(text)!], countedOneByOne(text, toyTerm), text);
  }
});

test('the table grows and starts afresh past its bound without changing counts', () => {
  const random = mulberry32(7);
  const word = () => Array.from({ length: 2 + Math.floor(random() * 8) }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
  const vocabulary = Array.from({ length: 20_000 }, word);
  const table = new AsciiTermTable(toyTerm, 2, 5_000); // several rehashes in one text, resets between texts
  for (let k = 0; k < 5; k++) {
    const text = Array.from({ length: 30_000 }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(random() < 0.5 ? ' ' : ', ');
    assert.deepEqual([...table.count(text)!], countedOneByOne(text, toyTerm));
  }
});

test('tokens keep being told apart once their bytes outgrow the first 64 KB kept for them', () => {
  const random = mulberry32(11);
  // 30,000 distinct tokens of 6–11 letters: ~250 KB of token bytes, kept without a reset.
  const vocabulary = [...new Set(Array.from({ length: 30_000 }, () => Array.from({ length: 6 + Math.floor(random() * 6) }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('')))];
  const table = new AsciiTermTable(toyTerm, 2, 100_000);
  const first = vocabulary.join(' ');
  assert.deepEqual([...table.count(first)!], countedOneByOne(first, toyTerm));
  // Seen before now, in another order and case: found again, not added twice.
  const again = vocabulary.slice().reverse().map((w, i) => (i % 3 ? w : w.toUpperCase())).join('; ');
  assert.deepEqual([...table.count(again)!], countedOneByOne(again, toyTerm));
});

test('text with a non-ASCII character is left to the Unicode path, and leaves no counts behind', () => {
  const table = new AsciiTermTable(toyTerm, 2, 100_000);
  assert.equal(table.count('harbour harbour café harbour'), null);
  assert.deepEqual([...table.count('harbour')!], [['harbour', 1]]);
});

test("the analyzer's termCounts (table) and terms (token by token) agree, stop words and stems included", () => {
  const analyzer = createTextAnalyzer();
  const text = 'The lighthouses and the harbours: lighthouse keepers archived 3 archives of the estuary. Cafés aside.';
  for (const sample of [text, text.replace('Cafés', 'Cafes')]) {
    const expected = new Map<string, number>();
    for (const term of analyzer.terms(sample, 'eng')) expected.set(term, (expected.get(term) ?? 0) + 1);
    assert.deepEqual([...analyzer.termCounts(sample, 'eng')], [...expected]);
  }
});

test('a text of over a megabyte is counted like any other, and the next small one still is', () => {
  const table = new AsciiTermTable(toyTerm, 2, 100_000);
  const big = 'harbour tide, lighthouse keepers; '.repeat(40_000); // 1.36 MB
  assert.deepEqual([...table.count(big)!], countedOneByOne(big, toyTerm));
  assert.deepEqual([...table.count('tide tables')!], [['tide', 1], ['table', 1]]);
});

test('tokens that share their hash and length are still told apart, short (by their letters as a number) or long (by their bytes)', () => {
  // FNV-1a collisions found by a brute-force search over random tokens of 8 and 12 letters.
  const fnv1a = (s: string) => [...s].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 0x01000193), 0x811c9dc5 | 0);
  for (const [a, b] of [['xzlpzwsr', 'mivaimps'], ['gpkzuayxwjpe', 'wxvvfnedrhbk']] as const) {
    assert.equal(fnv1a(a), fnv1a(b));
    const table = new AsciiTermTable((t) => t, 2, 100_000);
    assert.deepEqual([...table.count(`${a} ${b} ${a.toUpperCase()}`)!], [[a, 2], [b, 1]]);
    assert.deepEqual([...table.count(`${b} ${a}`)!], [[b, 1], [a, 1]]);
  }
});
