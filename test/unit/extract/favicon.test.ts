import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorPageRenders, faviconLink, FAVICON_SOURCE } from '../../../worker/extract';

test('a page\'s favicon link: /favicon.ico at the root of its origin, a requisite', () => {
  assert.deepEqual(faviconLink('http://Example.org:8080/a/b.html?x=1#top'), { url: 'http://example.org:8080/favicon.ico', kind: 'requisite', source: FAVICON_SOURCE, anchorText: '', context: '' });
  assert.equal(faviconLink('https://example.org/')!.url, 'https://example.org/favicon.ico');
  assert.equal(faviconLink('not a url'), null);
});

test('an error answer is a rendered document, which asks for the icon, when it has an HTML body', () => {
  assert.equal(errorPageRenders(404, 'text/html; charset=utf-8', 120), true);
  assert.equal(errorPageRenders(503, 'application/xhtml+xml', 80), true);
  assert.equal(errorPageRenders(500, 'text/html', 0), false, 'empty: the browser\'s own error page');
  assert.equal(errorPageRenders(404, 'text/plain', 9), false);
  assert.equal(errorPageRenders(404, 'text/htmlx', 9), false);
  assert.equal(errorPageRenders(301, 'text/html', 200), false, 'a redirect renders nothing');
  assert.equal(errorPageRenders(200, 'text/html', 200), false, 'a 2xx page is the extraction\'s to tell');
});
