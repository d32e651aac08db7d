import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeenUrlMap, seenKey, urlHash } from '../../../worker/frontier/url-hash';

test('URLs of a page that differ by their session ids have one seen key and one hash', () => {
  const variants = [
    ['http://a.test/a', 'http://a.test/a;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9', 'http://a.test/a;jsessionid=FFEEDDCCBBAA99887766554433221100'],
    ['http://a.test/p.php?id=3', 'http://a.test/p.php?id=3&PHPSESSID=9f8e7d6c5b4a39281706f5e4d3c2b1a0', 'http://a.test/p.php?PHPSESSID=00112233445566778899aabbccddeeff&id=3'],
    ['http://a.test/t.php?t=7', 'http://a.test/t.php?s=0123456789abcdef0123456789abcdef&t=7'],
    ['http://a.test/i.cfm', 'http://a.test/i.cfm?CFID=123456&CFTOKEN=12345678', 'http://a.test/i.cfm?CFID=654321&CFTOKEN=87654321'],
  ];
  for (const [plain, ...others] of variants) {
    for (const url of others) {
      assert.equal(seenKey(url), plain, url);
      assert.equal(urlHash(url), urlHash(plain!), url);
    }
  }
});

test('parameters that are not session ids keep URLs apart: a search, a short sid, other parameters', () => {
  const distinct = [
    'http://a.test/search?s=harbour',
    'http://a.test/search?s=tides',
    'http://a.test/news?sid=12',
    'http://a.test/news?sid=13',
    'http://a.test/news',
    'http://a.test/p.php?id=3',
    'http://a.test/p.php?id=4',
    'http://a.test/a;b=c',
    'http://a.test/a',
  ];
  assert.equal(new Set(distinct.map(urlHash)).size, distinct.length);
  for (const url of distinct) assert.equal(seenKey(url), url);
});

test('a URL without session ids keeps the hash rows stored before the key left them out hold', () => {
  // urlHash as it was: the first 64 bits of the SHA-1 of the whole URL.
  const stored: [string, bigint][] = [
    ['http://a.test/', -112462972057596327n],
    ['http://a.test/search?s=harbour+tides', 3367370206521951351n],
    ['http://a.test/news?sid=12', -840374305703325061n],
    ['http://a.test/a;b=c?session=x', -9163690878980124172n],
    ['http://a.test/cart', -1191690417906230655n],
  ];
  for (const [url, hash] of stored) assert.equal(urlHash(url), hash, url);
  // A URL with one hashed then is the page's now.
  assert.equal(urlHash('http://a.test/cart;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9'), -1191690417906230655n);
});

test('a SeenUrlMap holds the URLs of one page under one entry, whichever of them asks', () => {
  const known = new SeenUrlMap<number>();
  known.set('http://a.test/a;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9', 7);
  assert.equal(known.get('http://a.test/a;jsessionid=FFEEDDCCBBAA99887766554433221100'), 7);
  assert.equal(known.has('http://a.test/a'), true);
  assert.equal(known.has('http://a.test/b'), false);
  known.set('http://a.test/a', 8);
  assert.deepEqual([...known], [['http://a.test/a', 8]]);
  assert.equal(known.delete('http://a.test/a;jsessionid=FFEEDDCCBBAA99887766554433221100'), true);
  assert.equal(known.size, 0);
});
