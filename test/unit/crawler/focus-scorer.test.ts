import { test } from 'node:test';
import assert from 'node:assert/strict';
import { breakdownJsonOf, pageFromHtml, type LinkVerdicts } from '../../../worker/crawler/focus-scorer';
import type { ModuleName, PageLink } from '../../../worker/analyze';
import { extractFromResponse } from '../../../worker/extract';
import { queryEncodingOf } from '../../../worker/url';

test('a link breakdown is written as JSON.stringify writes its scores and weights, absent modules left out', () => {
  const modules = ['text', 'urlPattern', 'spam', 'entity', 'aah'] as ModuleName[];
  const rows: [number[], number[]][] = [
    [[0.123456789012345, NaN, 1, NaN, 0.9], [0.5, NaN, 0.25, NaN, 1e-7]],
    [[NaN, NaN, NaN, NaN, NaN], [NaN, NaN, NaN, NaN, NaN]],
    [[0, 1 / 3, 2e21, NaN, Infinity], [1, 2, 3, 4, 5]],
  ];
  const v: LinkVerdicts = {
    similarity: 0.5,
    modules,
    priorities: new Float64Array(rows.length),
    scores: Float64Array.from(rows.flatMap((r) => r[0])),
    weights: Float64Array.from(rows.flatMap((r) => r[1])),
    excluded: new Uint8Array(rows.length),
  };
  rows.forEach(([scores, weights], i) => {
    const pick = (xs: number[]) => Object.fromEntries(modules.flatMap((name, k) => (Number.isNaN(xs[k]) ? [] : [[name, xs[k]]])));
    assert.equal(breakdownJsonOf(v, i), JSON.stringify({ scores: pick(scores), weights: pick(weights) }), `link ${i}`);
  });
});

// Found by a differential exploration: focused analysis's own pass over a windows-1252 page with a
// <base> resolved its references again in UTF-8 (a page with a base hands on no resolutions), so
// ?q=café was not the link the crawl found (?q=caf%E9) and lost its anchor text and paragraph; a GET
// form submitted as a browser does (scope.submitGetForms) was its bare action there, and lost its paragraph.
test("focused analysis's pass finds the links the crawl's pass found: a legacy page's queries after a <base>, submitted forms", () => {
  const url = 'http://example.org/dir/page.html';
  const body = Buffer.from('<head><base href="/tides/"></head><p>Harbour <a href="table?q=caf\xe9">tide caf\xe9</a> times</p>'
    + '<div>Search the harbour <form action="find"><input name=q value="mar\xe9e"></form></div>', 'latin1');
  const settings = { queryHandling: 'keep' as const, submitForms: true };
  const crawl = extractFromResponse({ url, status: 200, headers: { 'content-type': 'text/html; charset=windows-1252' }, body, maxDecodedBytes: 1e6, text: false, ...settings });
  assert.deepEqual(crawl.links.map((l) => l.url), ['http://example.org/tides/table?q=caf%E9', 'http://example.org/tides/find?q=mar%E9e']);
  const links: PageLink[] = crawl.links.map((l) => ({ url: l.url, anchorText: '', context: '', kind: l.kind }));
  pageFromHtml({ url, html: crawl.htmlText!, links, resolved: crawl.resolved, encoding: queryEncodingOf(crawl.charset) }, settings);
  assert.deepEqual(links.map((l) => [l.anchorText, l.context]), [['tide café', 'Harbour tide café times'], ['', 'Search the harbour']]);
});
