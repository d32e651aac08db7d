import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retakesSelfRedirect } from '../../../worker/crawler/commit-item';
import type { HttpExchange } from '../../../worker/capture';

const URL_ = 'http://harbour.test/';
const page = (status: number, headers: Record<string, string>, location: string | null) => ({
  url: URL_,
  exchange: { status, headers } as HttpExchange,
  links: location === null ? [] : [{ url: location, kind: 'redirect', anchorText: '', context: '', source: 'header@location' }],
});

test('a redirect to its own URL that sets a cookie is taken again when the crawl keeps cookies; nothing else is', () => {
  const wall = page(302, { 'set-cookie': 'consent=yes' }, URL_);
  assert.equal(retakesSelfRedirect(wall, true), true);
  assert.equal(retakesSelfRedirect(wall, false), false, 'no cookies kept: the same answer would come back');
  assert.equal(retakesSelfRedirect(page(302, {}, URL_), true), false, 'no cookie set: nothing would change');
  assert.equal(retakesSelfRedirect(page(302, { 'set-cookie': 'a=1' }, 'http://harbour.test/home'), true), false, 'to another URL: queued as a link');
  assert.equal(retakesSelfRedirect(page(200, { 'set-cookie': 'a=1' }, null), true), false);
  assert.equal(retakesSelfRedirect(page(304, { 'set-cookie': 'a=1' }, null), true), false);
  assert.equal(retakesSelfRedirect({ url: URL_, links: [] }, true), false, 'nothing fetched');
});
