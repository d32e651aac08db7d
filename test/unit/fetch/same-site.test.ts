import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameSiteContext, siteOf } from '../../../worker/fetch/same-site';

test('a site is the scheme and the registrable domain (private suffixes too); an IP address or a bare host is its own', () => {
  assert.equal(siteOf('https://news.example.co.uk/a'), 'https://example.co.uk');
  assert.equal(siteOf('https://example.co.uk:8443/'), 'https://example.co.uk', 'the port plays no part');
  assert.equal(siteOf('http://news.example.co.uk/'), 'http://example.co.uk', 'schemeful: http is another site than https');
  assert.equal(siteOf('https://alice.github.io/x'), 'https://alice.github.io');
  assert.equal(siteOf('http://127.0.0.2:8080/'), 'http://127.0.0.2');
  assert.equal(siteOf('http://localhost/'), 'http://localhost');
  assert.equal(siteOf('ftp://example.org/'), null);
  assert.equal(siteOf('not a url'), null);
});

test('found on no page or on its own site: same-site; on another site, a link is a Lax navigation and a requisite a subresource', () => {
  assert.equal(sameSiteContext('https://a.example.org/', null, 'seed'), 'strict');
  assert.equal(sameSiteContext('https://a.example.org/', undefined, undefined), 'strict');
  assert.equal(sameSiteContext('https://img.example.org/x.png', 'https://www.example.org/', 'requisite'), 'strict');
  assert.equal(sameSiteContext('https://other.org/page', 'https://www.example.org/', 'navigation'), 'lax');
  assert.equal(sameSiteContext('https://other.org/moved', 'https://www.example.org/', 'redirect'), 'lax');
  assert.equal(sameSiteContext('https://other.org/x.png', 'https://www.example.org/', 'requisite'), 'none');
  assert.equal(sameSiteContext('https://bob.github.io/x.png', 'https://alice.github.io/', 'requisite'), 'none', 'two sites under a private suffix');
  assert.equal(sameSiteContext('http://www.example.org/x.png', 'https://www.example.org/', 'requisite'), 'none', 'another scheme, another site');
});
