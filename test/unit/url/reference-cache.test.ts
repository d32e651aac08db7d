import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalize, ReferenceCache, type QueryHandling } from '../../../worker/url';

// References a page may hold, the tricky ones included: root-relative, protocol-relative spelled
// three ways, relative to the base's path, query-only, absolute, and broken.
const REFS = [
  '/a/b.html', '/a/../c?z=1&a=2', '/p%7Eq?x', '//other.example/x', '/\\evil.example/y', '/\t/tab.example/z',
  'rel/d.html', '../up.html', '?q=1', '#top', 'https://abs.example/A', 'http://[bad/', '/ spaced path/',
];
const BASES = [
  'http://site.example/dir/page.html', 'http://site.example/other/deeper/page.html', 'https://site.example/dir/page.html',
  'http://site.example:8080/dir/', 'http://user:pw@site.example/dir/x', 'http://xn--bcher-kva.example/', 'http://site.example/',
];

test('the cache resolves every reference as canonicalize does, on every base, first time and again', () => {
  for (const handling of ['keep', 'sort', 'strip'] as QueryHandling[]) {
    const cache = new ReferenceCache(handling);
    for (let round = 0; round < 2; round++) {
      for (const base of BASES) {
        for (const ref of REFS) assert.equal(cache.resolve(ref, base), canonicalize(ref, base, { queryHandling: handling }), `${handling} ${ref} on ${base}`);
      }
    }
  }
});

test('a root-relative reference resolved on one origin is not reused on another', () => {
  const cache = new ReferenceCache();
  assert.equal(cache.resolve('/x', 'http://a.example/p'), 'http://a.example/x');
  assert.equal(cache.resolve('/x', 'http://a.example:81/p'), 'http://a.example:81/x');
  assert.equal(cache.resolve('/x', 'https://a.example/p'), 'https://a.example/x');
  assert.equal(cache.resolve('/x', 'http://u@a.example/p'), 'http://a.example/x', 'user info is no part of a canonical URL');
  assert.equal(cache.resolve('/x', 'http://b.example/q/r'), 'http://b.example/x');
});

test('a full cache starts afresh and stays right', () => {
  const cache = new ReferenceCache('keep', 3);
  for (let i = 0; i < 10; i++) assert.equal(cache.resolve(`/p${i}`, 'http://a.example/'), `http://a.example/p${i}`);
  assert.equal(cache.resolve('/p1', 'http://b.example/'), 'http://b.example/p1');
});
