import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostKeyOf, matchesSurtPrefix, payLevelDomainOf, surtKey, surtPrefixOf, toSurt } from '../../../worker/url';

test('toSurt gives the Heritrix form', () => {
  assert.equal(toSurt('http://www.Example.org/Path?q=1#f'), 'http://(org,example,www,)/Path?q=1');
  assert.equal(toSurt('https://example.org:8443/'), 'https://(org,example,:8443)/');
  assert.equal(toSurt('nonsense'), '');
});

test('surtKey matches the pywb/CDXJ key', () => {
  assert.equal(surtKey('http://www.Example.org/Path/a?b=2&a=1#x'), 'org,example)/path/a?a=1&b=2');
  assert.equal(surtKey('https://example.org:8080/'), 'org,example:8080)/');
  assert.equal(surtKey('http://www2.example.org/'), 'org,example)/');
  assert.equal(surtKey('http://sub.example.co.uk/a'), 'uk,co,example,sub)/a');
  assert.equal(surtKey('http://127.0.0.1:3000/x?y'), '1,0,0,127:3000)/x?y');
  assert.equal(surtKey('http://www.example.org/?'), 'org,example)/');
});

test('surtPrefixOf derives a prefix from a seed or keeps a SURT prefix', () => {
  assert.equal(surtPrefixOf('http://example.org/blog/post?x=1'), 'http://(org,example,)/blog/');
  assert.equal(surtPrefixOf('http://example.org'), 'http://(org,example,)/');
  assert.equal(surtPrefixOf('HTTP://(ORG,Example,)/Blog'), 'http://(org,example,)/Blog');
});

test('matchesSurtPrefix: path prefixes, subdomain prefixes, https as http', () => {
  assert.equal(matchesSurtPrefix('http://example.org/blog/a', 'http://(org,example,)/blog'), true);
  assert.equal(matchesSurtPrefix('http://example.org/about', 'http://(org,example,)/blog'), false);
  assert.equal(matchesSurtPrefix('https://news.example.org/x', 'http://(org,example,'), true);
  assert.equal(matchesSurtPrefix('http://example.net/x', 'http://(org,example,'), false);
  assert.equal(matchesSurtPrefix('https://example.org/blog/x', 'http://example.org/blog/'), true);
  assert.equal(matchesSurtPrefix('http://example.org/Blog/x', 'http://(org,example,)/blog'), false);
});

test('host key and pay-level domain', () => {
  assert.equal(hostKeyOf('http://WWW.Example.org:80/x'), 'www.example.org');
  assert.equal(hostKeyOf('http://127.0.0.1:8080/x'), '127.0.0.1:8080');
  assert.equal(hostKeyOf('garbage'), '');
  assert.equal(payLevelDomainOf('http://news.bbc.co.uk/a'), 'bbc.co.uk');
  assert.equal(payLevelDomainOf('a.b.example.org'), 'example.org');
  assert.equal(payLevelDomainOf('alice.github.io'), 'alice.github.io');
  assert.equal(payLevelDomainOf('http://127.0.0.1:3000/'), '127.0.0.1');
  assert.equal(payLevelDomainOf('localhost'), 'localhost');
});

test('surtKey agrees with warcio getSurt (the key pywb-compatible CDXJ already uses)', async () => {
  const { getSurt } = await import('warcio');
  const urls = [
    'http://www.Example.org/Path/a?b=2&a=1#x',
    'https://example.org:8080/',
    'http://www2.example.org/',
    'http://127.0.0.1:3000/x?y',
    'http://b\u00fccher.example/',
    'http://example.org/a b',
    'http://example.org/?b=1&a=2&a=1',
    'https://example.org:443/x',
    'http://example.org/a/../b',
    'http://wwwx.example.org/',
  ];
  for (const url of urls) assert.equal(surtKey(url), getSurt(url), url);
  // Where they differ on purpose: escapes of unreserved characters are decoded, as pywb's
  // canonicaliser does, so `%7E` and `~` index as one URL.
  assert.equal(surtKey('http://example.org/a%7eb'), 'org,example)/a~b');
});

test('surtPrefixOf takes the forms archivists write: without a scheme (the form\'s own example), with a Heritrix "+", a URL without a scheme', () => {
  assert.equal(surtPrefixOf('(org,example,)/news'), 'http://(org,example,)/news');
  assert.equal(surtPrefixOf('(ORG,example,'), 'http://(org,example,');
  assert.equal(surtPrefixOf('+http://(org,example,)/news'), 'http://(org,example,)/news');
  assert.equal(surtPrefixOf('+ (org,example,)/news'), 'http://(org,example,)/news');
  assert.equal(surtPrefixOf('example.org/news/'), 'http://(org,example,)/news/');
  assert.equal(matchesSurtPrefix('https://example.org/news/a', '(org,example,)/news'), true);
  assert.equal(matchesSurtPrefix('https://example.org/about', '(org,example,)/news'), false);
  assert.equal(surtPrefixOf('not a prefix at all'), '');
});

// Found by an exploratory session (international names): a SURT prefix written in SURT form with
// a label in its own script, `(example,bücher,`, kept the label so, while toSurt writes every URL's
// host in punycode: the prefix matched no URL of the host.
test('a SURT prefix with labels in their own script matches the host, as its punycode form does', () => {
  assert.equal(surtPrefixOf('(example,Bücher,)/Neu'), 'http://(example,xn--bcher-kva,)/Neu');
  assert.equal(surtPrefixOf('http://(example,bücher,'), 'http://(example,xn--bcher-kva,');
  assert.equal(surtPrefixOf('http://(jp,例え,:8080)/'), 'http://(jp,xn--r8jz45g,:8080)/');
  assert.equal(matchesSurtPrefix('http://bücher.example/neu/a', '(example,bücher,)/neu'), true);
  assert.equal(matchesSurtPrefix('https://www.bücher.example/a', '(example,bücher,'), true);
  assert.equal(matchesSurtPrefix('http://buecher.example/a', '(example,bücher,'), false);
  assert.equal(surtPrefixOf('http://([::1],:8080)/x'), 'http://([::1],:8080)/x', 'an IPv6 literal is left as written');
});
