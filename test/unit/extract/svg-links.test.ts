import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractFromResponse, extractSvgLinks, type ResponseInput } from '../../../worker/extract';
import { bySource } from '../../support/links-by-source';

const SVG_URL = 'http://example.org/img/map.svg';
const u = (p: string) => `http://example.org${p}`;

test('an SVG document: image, use, feImage and script are requisites, a a link, styles read as CSS', () => {
  const svg = `<?xml version="1.0" encoding="utf-8"?>
<?xml-stylesheet type="text/css" href="map.css"?>
<!DOCTYPE svg [<!ENTITY host "http://evil.example">]>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
  <style><![CDATA[ @import "fonts.css"; .sea { background: url(/tex/sea.png) } ]]></style>
  <style>.land { background: url('land.png?a=1&amp;b=2') }</style>
  <defs><filter id="f"><feImage href="noise.png"/><feImage xlink:href="grain.png"/></filter></defs>
  <image href="tile.jpg" xlink:href="ignored.jpg"/><image xlink:href="/shared/legend.png"/>
  <use href="sprites.svg#harbour"/><use xlink:href="#local"/>
  <script href="map.js"/><script xlink:href="/js/old.js"></script>
  <a xlink:href="/harbours/oslo"><text>Oslo</text></a><svg:a xmlns:svg="http://www.w3.org/2000/svg" href="bergen">Bergen</svg:a>
  <rect style="fill: url(pattern.svg#p)"/>
</svg>`;
  const s = bySource(extractSvgLinks(svg, SVG_URL));
  assert.deepEqual(s, {
    'xml-stylesheet@href:requisite': [u('/img/map.css')],
    'style@import:requisite': [u('/img/fonts.css')],
    'style@url:requisite': [u('/tex/sea.png'), u('/img/land.png?a=1&b=2')],
    'feImage@href:requisite': [u('/img/noise.png')],
    'feImage@xlink:href:requisite': [u('/img/grain.png')],
    'image@href:requisite': [u('/img/tile.jpg')],
    'image@xlink:href:requisite': [u('/shared/legend.png')],
    'use@href:requisite': [u('/img/sprites.svg')],
    'script@href:requisite': [u('/img/map.js')],
    'script@xlink:href:requisite': [u('/js/old.js')],
    'a@xlink:href:navigation': [u('/harbours/oslo')],
    'a@href:navigation': [u('/img/bergen')],
    'rect@style:requisite': [u('/img/pattern.svg')],
  }, '#local names a part of this document');
  const entity = extractSvgLinks(svg.replace('</svg>', '<image href="&host;/x.png"/></svg>'), SVG_URL);
  assert.ok(!entity.some((l) => l.url.includes('evil.example')), 'a DOCTYPE\'s entity is never expanded');
});

test('an SVG document resolves against the xml:base in scope', () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xml:base="/assets/"><g xml:base="icons/"><image href="a.png"/></g><image href="b.png"/></svg>`;
  assert.deepEqual(extractSvgLinks(svg, SVG_URL).map((l) => l.url), [u('/assets/icons/a.png'), u('/assets/b.png')]);
});

test('a response of type image/svg+xml is read as SVG; broken markup never throws', () => {
  const input = (body: string, type = 'image/svg+xml; charset=utf-8'): ResponseInput => ({ url: SVG_URL, status: 200, headers: { 'content-type': type }, body: Buffer.from(body), maxDecodedBytes: 1_000_000 });
  const r = extractFromResponse(input('<svg xmlns="http://www.w3.org/2000/svg"><image href="tile.png"/></svg>'));
  assert.equal(r.kind, 'svg');
  assert.deepEqual(r.links.map((l) => [l.url, l.kind]), [[u('/img/tile.png'), 'requisite']]);
  for (const junk of ['', '<svg', '<svg><image href="', '<<<>>>&&&', '\u0000\uffff<svg><use href="x.svg"']) assert.equal(extractFromResponse(input(junk)).kind, 'svg');
  assert.equal(extractFromResponse(input('<svg><image href="p.png"/></svg>', 'image/png')).kind, 'other', 'a PNG is no SVG, whatever it holds');
});
