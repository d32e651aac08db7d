import { test } from 'node:test';
import assert from 'node:assert/strict';
import { faviconLink, FAVICON_SOURCE } from '../../../worker/extract';

test('a page\'s favicon link: /favicon.ico at the root of its origin, a requisite', () => {
  assert.deepEqual(faviconLink('http://Example.org:8080/a/b.html?x=1#top'), { url: 'http://example.org:8080/favicon.ico', kind: 'requisite', source: FAVICON_SOURCE, anchorText: '', context: '' });
  assert.equal(faviconLink('https://example.org/')!.url, 'https://example.org/favicon.ico');
  assert.equal(faviconLink('not a url'), null);
});
