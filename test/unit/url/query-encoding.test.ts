import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalize, queryEncodingOf, ReferenceCache } from '../../../worker/url';
import { encodeQueryIn } from '../../../worker/url/query-encoding';

// What Chromium requested for each reference of a page in the encoding, from a loopback server's log.
const CHROMIUM: [encoding: string, ref: string, requested: string][] = [
  ['windows-1252', '/a?q=café', '/a?q=caf%E9'],
  ['windows-1252', '/a?q=中éx', '/a?q=%26%2320013%3B%E9x'],
  ['windows-1252', '/i2.png?\u{1F600}', '/i2.png?%26%23128512%3B'],
  ['windows-1252', '/i3.png?\u0081\u008d', '/i3.png?%81%8D'],
  ['windows-1252', '/pé.png?é', '/p%C3%A9.png?%E9'],
  ['windows-1252', '/sp.png?a b\u00a0é', '/sp.png?a%20b%A0%E9'],
  ['windows-1252', '/lone.png?\ud800', '/lone.png?%26%2365533%3B'],
  ['iso-8859-2', '/a?q=żółw€', '/a?q=%BF%F3%B3w%26%238364%3B'],
  ['shift_jis', '/a?q=中', '/a?q=%92%86'],
  ['shift_jis', '/s.png?q=表é¥‾', '/s.png?q=%95\\%26%23233%3B\\~'],
  ['gbk', '/a?q=中文', '/a?q=%D6%D0%CE%C4'],
  ['gbk', '/gbk.png?q=é€\u{1F600}', '/gbk.png?q=%A8%A6%80%26%23128512%3B'],
  ['gb18030', '/gb.png?q=é€\u{1F600}', '/gb.png?q=%A8%A6%A2%E3%949%FC6'],
];

test("a legacy page's query is encoded in its encoding, as Chromium requests it; its path in UTF-8", () => {
  for (const [encoding, ref, requested] of CHROMIUM) {
    assert.equal(canonicalize(ref, 'http://example.org/page', { encoding }), `http://example.org${requested}`, `${encoding} ${ref}`);
  }
});

test('only the query is re-encoded: not the path, nor a fragment, nor a "?" inside the fragment', () => {
  assert.equal(encodeQueryIn('/é?é#é', 'windows-1252'), '/é?%E9#é');
  assert.equal(encodeQueryIn('/é#x?é', 'windows-1252'), '/é#x?é');
  assert.equal(encodeQueryIn('/a?q=plain', 'windows-1252'), '/a?q=plain');
  assert.equal(encodeQueryIn('/a?q=%C3%A9', 'windows-1252'), '/a?q=%C3%A9', 'escapes as written stay');
});

test('UTF-8 and UTF-16 documents, and the encodings without an encoder here, keep UTF-8 queries', () => {
  for (const charset of ['utf-8', 'utf-16le', 'utf-16be', 'iso-2022-jp', undefined]) assert.equal(queryEncodingOf(charset), undefined, String(charset));
  assert.equal(queryEncodingOf('windows-1252'), 'windows-1252');
  assert.equal(canonicalize('/a?q=é', 'http://example.org/'), 'http://example.org/a?q=%C3%A9');
});

test("the reference cache keys a reference by its page's encoding", () => {
  const cache = new ReferenceCache();
  assert.equal(cache.resolve('/a?q=é', 'http://example.org/p'), 'http://example.org/a?q=%C3%A9');
  assert.equal(cache.resolve('/a?q=é', 'http://example.org/p', 'windows-1252'), 'http://example.org/a?q=%E9');
  assert.equal(cache.resolve('/a?q=é', 'http://example.org/p', 'iso-8859-7'), 'http://example.org/a?q=%26%23233%3B');
  assert.equal(cache.resolve('/a?q=é', 'http://example.org/p'), 'http://example.org/a?q=%C3%A9');
});
