import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalize, sortQuery } from '../../../worker/url';

const table: [input: string, expected: string | null, base?: string][] = [
  ['http://example.org', 'http://example.org/'],
  ['HTTP://WWW.Example.ORG/Path', 'http://www.example.org/Path'],
  ['http://example.org:80/a', 'http://example.org/a'],
  ['https://example.org:443/a', 'https://example.org/a'],
  ['http://example.org:8080/a', 'http://example.org:8080/a'],
  ['https://example.org:80/a', 'https://example.org:80/a'],
  ['http://example.org/a#section', 'http://example.org/a'],
  ['http://example.org/a?b=1#frag?x', 'http://example.org/a?b=1'],
  ['http://example.org/a/./b/../c', 'http://example.org/a/c'],
  ['http://example.org/../../a', 'http://example.org/a'],
  ['http://example.org/a/%2e%2E/b', 'http://example.org/b'],
  ['http://example.org/%7Euser', 'http://example.org/~user'],
  ['http://example.org/%7euser/%41%62', 'http://example.org/~user/Ab'],
  ['http://example.org/a%2fb%3a', 'http://example.org/a%2Fb%3A'],
  ['http://example.org/a b', 'http://example.org/a%20b'],
  // As Chromium requests them (WHATWG leaves them); `[`, `]` and the query stay as both leave them.
  ['http://example.org/a|b^c', 'http://example.org/a%7Cb%5Ec'],
  ['http://example.org/a%7cb%5e', 'http://example.org/a%7Cb%5E'],
  ['http://example.org/[x]?q=a|b^c', 'http://example.org/[x]?q=a|b^c'],
  ['http://example.org/caf\u00e9', 'http://example.org/caf%C3%A9'],
  ['http://b\u00fccher.example/', 'http://xn--bcher-kva.example/'],
  ['http://M\u00dcNCHEN.de/', 'http://xn--mnchen-3ya.de/'],
  ['http://example.org./a', 'http://example.org/a'],
  ['http://example.org../a', null],
  ['http://a..example.org/', null],
  ['http://.example.org/', null],
  ['http://./', null],
  ['http://example.org/?', 'http://example.org/'],
  ['http://example.org/?q=%7e%2f', 'http://example.org/?q=~%2F'],
  ['  http://example.org/a\n ', 'http://example.org/a'],
  ['http://user:pw@example.org/', 'http://example.org/'],
  ['http://user@Example.org:80/a', 'http://example.org/a'],
  ['/b', 'http://example.org/b', 'http://user:pw@example.org/a'],
  ['http://192.168.0.1:80/', 'http://192.168.0.1/'],
  ['http://[::1]:8080/x', 'http://[::1]:8080/x'],
  ['b/c?d', 'http://example.org/a/b/c?d', 'http://example.org/a/index.html'],
  ['//cdn.example.net/x.js', 'https://cdn.example.net/x.js', 'https://example.org/'],
  ['#top', 'http://example.org/a', 'http://example.org/a#x'],
  ['ftp://example.org/file', null],
  ['mailto:someone@example.org', null],
  ['javascript:void(0)', null],
  ['data:text/plain,hi', null],
  ['http://', null],
  ['not a url', null],
  ['', null],
  ['http://exa mple.org/', null],
  ['\u0000\u0001garbage', null],
  ['relative/only', null],
];

test('canonicalize table', () => {
  for (const [input, expected, base] of table) {
    assert.equal(canonicalize(input, base), expected, `canonicalize(${JSON.stringify(input)}, ${base})`);
  }
});

test('query handling: keep, sort (stable), strip', () => {
  const url = 'http://example.org/p?b=2&a=1&b=1&&c';
  assert.equal(canonicalize(url, undefined, { queryHandling: 'keep' }), 'http://example.org/p?b=2&a=1&b=1&&c');
  assert.equal(canonicalize(url, undefined, { queryHandling: 'sort' }), 'http://example.org/p?a=1&b=2&b=1&c');
  assert.equal(canonicalize(url, undefined, { queryHandling: 'strip' }), 'http://example.org/p');
  assert.equal(sortQuery('z&y=1&x=2&y=0'), 'x=2&y=1&y=0&z');
});

test('canonicalize never throws on hostile input and is idempotent', () => {
  const inputs = [undefined, null, 42, {}, 'http://%', 'http://a/%zz%', 'http://' + 'a'.repeat(300) + '.org/', 'https://xn--/', 'http://[::1/'];
  for (const input of inputs) {
    assert.doesNotThrow(() => canonicalize(input as unknown as string));
  }
  assert.equal(canonicalize('http://a/%zz%'), 'http://a/%zz%');
  for (const [input, , base] of table) {
    const once = canonicalize(input, base);
    if (once) assert.equal(canonicalize(once), once, `idempotent for ${input}`);
  }
});
