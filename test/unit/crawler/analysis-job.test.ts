import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packPage, transferablesOf, unpackPage } from '../../../worker/crawler/analysis-job';
import type { HtmlPage } from '../../../worker/crawler/focus-scorer';

test('a page crosses packed and comes back with the same links, texts, bonuses, resolutions and encoding', () => {
  const page: HtmlPage = {
    url: 'http://example.org/',
    html: '<p>harbour <a href="/a">a</a></p>',
    links: [
      { url: 'http://example.org/a', anchorText: '', context: '', kind: 'navigation' },
      { url: 'http://example.org/b', anchorText: 'the b', context: 'around b', kind: 'navigation', aahBonus: 0.25 },
      { url: 'http://example.org/c.css', anchorText: '', context: '', kind: 'requisite', aahBonus: 0 },
      { url: 'http://example.org/d', anchorText: '', context: '' },
    ],
    resolved: new Map<string, string | null>([
      ['/a', 'http://example.org/a'],
      ['javascript:void(0)', null],
      ['', 'http://example.org/'],
    ]),
    encoding: 'windows-1252',
  };
  const packed = packPage(page);
  const back = unpackPage(structuredClone(packed));
  assert.deepEqual(back, page);
  assert.equal(transferablesOf(packed).length, 1);
});

test('no links, no bonuses and no resolutions pack to empty strings and nothing to transfer', () => {
  const page: HtmlPage = { url: 'http://example.org/', html: '', links: [] };
  const packed = packPage(page);
  assert.deepEqual(unpackPage(packed), page);
  assert.deepEqual(transferablesOf(packed), []);
  assert.equal(packed.bonuses, undefined);
});

test('a reference holding a line break is left for the thread to resolve again, the others still cross', () => {
  const page: HtmlPage = {
    url: 'http://example.org/',
    html: '',
    links: [{ url: 'http://example.org/ab', anchorText: '', context: '', kind: 'navigation' }],
    resolved: new Map<string, string | null>([
      ['/a\nb', 'http://example.org/ab'],
      ['/c', 'http://example.org/c'],
    ]),
  };
  const back = unpackPage(packPage(page));
  assert.deepEqual([...back.resolved!], [['/c', 'http://example.org/c']]);
  assert.deepEqual(back.links, page.links);
});
