import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCookieJar, setCookieValues } from '../../../worker/fetch';

test('cookie jar: a host-only cookie goes back to its host only, within its path', () => {
  const jar = createCookieJar();
  jar.remember('http://example.org/shop/cart', ['sid=abc; Path=/shop', 'lang=en']);
  assert.equal(jar.cookieHeaderFor('http://example.org/shop/item'), 'sid=abc; lang=en');
  // lang has the default path of /shop/cart: the directory /shop.
  assert.equal(jar.cookieHeaderFor('http://example.org/about'), null);
  assert.equal(jar.cookieHeaderFor('http://sub.example.org/shop/item'), null);
  assert.equal(jar.cookieHeaderFor('http://example.net/shop/item'), null);
});

test('cookie jar: a Domain cookie goes to subdomains; one for a public suffix or another site is refused', () => {
  const jar = createCookieJar();
  jar.remember('http://www.example.org/', ['a=1; Domain=example.org', 'b=2; Domain=co.uk', 'c=3; Domain=other.org', 'd=4; Domain=org']);
  assert.equal(jar.cookieHeaderFor('http://news.example.org/'), 'a=1');
  assert.equal(jar.cookieHeaderFor('http://example.co.uk/'), null);
  assert.equal(jar.cookieHeaderFor('http://other.org/'), null);
  assert.equal(jar.size(), 1);
});

test('cookie jar: a Secure cookie goes over https only', () => {
  const jar = createCookieJar();
  jar.remember('https://example.org/', ['s=1; Secure', 'p=2']);
  assert.equal(jar.cookieHeaderFor('https://example.org/'), 's=1; p=2');
  assert.equal(jar.cookieHeaderFor('http://example.org/'), 'p=2');
});

test('cookie jar: SameSite decides by the request\'s context; none given, every matching cookie goes', () => {
  const jar = createCookieJar();
  jar.remember('https://example.org/', ['s=1; SameSite=Strict', 'l=2; SameSite=Lax', 'n=3; SameSite=None; Secure', 'u=4']);
  assert.equal(jar.cookieHeaderFor('https://example.org/', 'strict'), 's=1; l=2; n=3; u=4');
  assert.equal(jar.cookieHeaderFor('https://example.org/', 'lax'), 'l=2; n=3; u=4');
  assert.equal(jar.cookieHeaderFor('https://example.org/', 'none'), 'n=3; u=4', 'unset counts as None, as Firefox and Safari have it');
  assert.equal(jar.cookieHeaderFor('https://example.org/'), 's=1; l=2; n=3; u=4');
  // A cross-site subresource's response may not set a Lax or Strict cookie; a navigation's may.
  jar.remember('https://example.org/', ['fromimage=5; SameSite=Strict', 'plain=6'], 'none');
  jar.remember('https://example.org/', ['fromlink=7; SameSite=Strict'], 'lax');
  assert.equal(jar.cookieHeaderFor('https://example.org/', 'strict'), 's=1; l=2; n=3; u=4; plain=6; fromlink=7');
});

test('cookie jar: an expired cookie deletes the one kept; a past Expires keeps nothing', () => {
  const jar = createCookieJar();
  jar.remember('http://example.org/', ['a=1; Max-Age=3600', 'b=2']);
  assert.equal(jar.cookieHeaderFor('http://example.org/'), 'a=1; b=2');
  jar.remember('http://example.org/', ['a=gone; Max-Age=0', 'c=3; Expires=Thu, 01 Jan 1970 00:00:01 GMT']);
  assert.equal(jar.cookieHeaderFor('http://example.org/'), 'b=2');
  assert.equal(jar.size(), 1);
});

test('cookie jar: a cookie over the byte bound is ignored, one at it is kept', () => {
  const jar = createCookieJar({ maxCookieBytes: 4096, maxPerDomain: 50, maxTotal: 10_000 });
  jar.remember('http://example.org/', [`big=${'x'.repeat(4094)}`, `ok=${'y'.repeat(4094)}`]);
  assert.equal(jar.cookieHeaderFor('http://example.org/'), `ok=${'y'.repeat(4094)}`);
});

test('cookie jar: past 50 cookies on a domain the least recently set goes; resetting one refreshes it', () => {
  const jar = createCookieJar();
  const names = Array.from({ length: 50 }, (_, i) => `c${i}=v`);
  jar.remember('http://example.org/', names);
  jar.remember('http://example.org/', ['c0=again']); // c0 is now the newest: c1 is the oldest
  jar.remember('http://example.org/', ['consent=yes']);
  const sent = jar.cookieHeaderFor('http://example.org/')!.split('; ');
  assert.equal(sent.length, 50);
  assert.ok(sent.includes('consent=yes'));
  assert.ok(sent.includes('c0=again'));
  assert.ok(!sent.includes('c1=v'));
  // Another domain has its own 50.
  jar.remember('http://example.net/', ['n=1']);
  assert.equal(jar.cookieHeaderFor('http://example.net/'), 'n=1');
  assert.equal(jar.size(), 51);
});

test('cookie jar: past the crawl total the least recently set cookie of any domain goes', () => {
  const jar = createCookieJar({ maxCookieBytes: 4096, maxPerDomain: 50, maxTotal: 3 });
  jar.remember('http://a.example/', ['a=1']);
  jar.remember('http://b.example/', ['b=1', 'b2=1']);
  jar.remember('http://c.example/', ['c=1']);
  assert.equal(jar.size(), 3);
  assert.equal(jar.cookieHeaderFor('http://a.example/'), null);
  assert.equal(jar.cookieHeaderFor('http://b.example/'), 'b=1; b2=1');
  assert.equal(jar.cookieHeaderFor('http://c.example/'), 'c=1');
});

test('cookie jar: malformed Set-Cookie values and unusable URLs are ignored without throwing', () => {
  const jar = createCookieJar();
  jar.remember('http://example.org/', ['', 'garbage', ';;;', '=', '\u0000=\u0001', 'ok=1']);
  jar.remember('not a url', ['x=1']);
  assert.equal(jar.cookieHeaderFor('http://example.org/'), 'ok=1');
  assert.equal(jar.cookieHeaderFor('not a url'), null);
});

test('cookie jar: a snapshot taken back keeps each cookie as it was (host-only, Domain, Secure, path, age), least recently set first', () => {
  const jar = createCookieJar({ maxCookieBytes: 4096, maxPerDomain: 50, maxTotal: 3 });
  jar.remember('http://www.example.org/shop/cart', ['host=1; Path=/shop']);
  jar.remember('http://www.example.org/', ['wide=1; Domain=example.org; Path=/']);
  jar.remember('https://www.example.org/', ['safe=1; Secure; Path=/']);
  const back = createCookieJar({ maxCookieBytes: 4096, maxPerDomain: 50, maxTotal: 3 }, jar.snapshot());
  assert.equal(back.size(), 3);
  assert.equal(back.cookieHeaderFor('http://www.example.org/shop/x'), 'host=1; wide=1');
  assert.equal(back.cookieHeaderFor('https://www.example.org/'), 'wide=1; safe=1');
  assert.equal(back.cookieHeaderFor('http://shop.example.org/shop/x'), 'wide=1', 'a host-only cookie stays its host\'s');
  // The order of setting came back too: one more cookie evicts host=1, the least recently set.
  back.remember('http://other.example/', ['o=1']);
  assert.equal(back.cookieHeaderFor('http://www.example.org/shop/x'), 'wide=1');
  assert.equal(back.cookieHeaderFor('http://other.example/'), 'o=1');
});

test('cookie jar: a cookie that expired after its snapshot does not come back; a Max-Age is kept as the time it ends', () => {
  const jar = createCookieJar();
  jar.remember('http://example.org/', ['brief=1; Max-Age=1', 'lasting=1; Max-Age=3600']);
  const snapshot = JSON.parse(jar.snapshot()) as { v: number; cookies: { key: string; creation: string; expires: string }[] };
  const brief = snapshot.cookies.find((c) => c.key === 'brief')!;
  assert.equal(Date.parse(brief.expires) - Date.parse(brief.creation), 1000);
  // As if both had been set two seconds earlier: brief=1 has expired since, lasting=1 has not.
  for (const c of snapshot.cookies) c.expires = new Date(Date.parse(c.expires) - 2000).toISOString();
  const back = createCookieJar(undefined, JSON.stringify(snapshot));
  assert.equal(back.cookieHeaderFor('http://example.org/'), 'lasting=1');
  assert.equal(back.size(), 1);
});

test('cookie jar: a damaged or unknown snapshot gives an empty jar; changes() moves with each cookie set', () => {
  for (const saved of ['', '{', 'null', '[]', '{"v":2,"cookies":[]}', '{"v":1,"cookies":[null,7,{"key":"x"}]}']) {
    assert.equal(createCookieJar(undefined, saved).size(), 0, saved);
  }
  const jar = createCookieJar();
  const before = jar.changes();
  jar.remember('http://example.org/', ['garbage']);
  assert.equal(jar.changes(), before, 'nothing kept, nothing changed');
  jar.remember('http://example.org/', ['a=1', 'a=1; Max-Age=0']);
  assert.equal(jar.changes(), before + 2, 'a cookie set, then deleted');
});

test('setCookieValues splits the repeated Set-Cookie headers of a headers record', () => {
  assert.deepEqual(setCookieValues({ 'set-cookie': 'a=1; Path=/\nb=2' }), ['a=1; Path=/', 'b=2']);
  assert.deepEqual(setCookieValues({}), []);
});
