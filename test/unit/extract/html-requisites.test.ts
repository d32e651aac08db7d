import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractHtml } from '../../../worker/extract';
import { bySource } from '../../support/links-by-source';

const PAGE = 'http://example.org/dir/page.html';
const u = (p: string) => `http://example.org${p}`;

test('inline SVG: use, image, feImage and script references are requisites, an SVG <a> a link, in either spelling', () => {
  const html = `<body><svg>
    <use href="sprite.svg#icon-home"></use><use xlink:href="/icons.svg#menu"/><use href="#local"/>
    <image href="photo.jpg"/><IMAGE XLink:Href="old.png"></IMAGE>
    <filter><feImage href="tex.png"/><FEIMAGE xlink:href="tex2.png"/></filter>
    <script href="svg-a.js"></script><script xlink:href="svg-b.js"></script>
    <image href="new.png" xlink:href="legacy.png"/>
    <a xlink:href="/svg-page"><text>Go</text></a><a href="/svg-page2">Two</a>
  </svg>
  <a xlink:href="/not-svg">html</a><script href="not-svg.js"></script><image href="not-svg.png"></body>`;
  const s = bySource(extractHtml(html, PAGE).links);
  assert.deepEqual(s['use@href:requisite'], [u('/dir/sprite.svg')], 'the sprite without its fragment; an in-page #local is no link');
  assert.deepEqual(s['use@xlink:href:requisite'], [u('/icons.svg')]);
  assert.deepEqual(s['image@href:requisite'], [u('/dir/photo.jpg'), u('/dir/new.png')]);
  assert.deepEqual(s['image@xlink:href:requisite'], [u('/dir/old.png')], 'href wins over xlink:href (SVG 2): legacy.png is not read');
  assert.deepEqual(s['feImage@href:requisite'], [u('/dir/tex.png')]);
  assert.deepEqual(s['feImage@xlink:href:requisite'], [u('/dir/tex2.png')]);
  assert.deepEqual(s['script@href:requisite'], [u('/dir/svg-a.js')]);
  assert.deepEqual(s['script@xlink:href:requisite'], [u('/dir/svg-b.js')]);
  assert.deepEqual(s['a@xlink:href:navigation'], [u('/svg-page')]);
  assert.deepEqual(s['a@href:navigation'], [u('/svg-page2')]);
  const all = Object.values(s).flat();
  for (const p of ['/not-svg', '/dir/not-svg.js', '/dir/not-svg.png', '/dir/legacy.png']) assert.ok(!all.includes(u(p)), `${p}: no reference outside <svg>`);
});

test('a preloaded responsive image: every imagesrcset candidate is a requisite, with or without href', () => {
  const html = `<head>
    <link rel="preload" as="image" href="hero.png" imagesrcset="hero-1x.png 1x, hero-2x.png 2x" imagesizes="100vw">
    <link rel=preload as=image imagesrcset="/wide.jpg 1600w,/narrow.jpg 800w" imagesizes="(max-width: 800px) 100vw, 50vw">
    <link rel="next" href="p2.html" imagesrcset="not-a-preload.png 1x"></head>`;
  const s = bySource(extractHtml(html, PAGE).links);
  assert.deepEqual(s['link@href:requisite'], [u('/dir/hero.png')]);
  assert.deepEqual(s['link@imagesrcset:requisite'], [u('/dir/hero-1x.png'), u('/dir/hero-2x.png'), u('/wide.jpg'), u('/narrow.jpg')]);
  assert.deepEqual(s['link@href:navigation'], [u('/dir/p2.html')]);
  assert.equal(s['link@imagesrcset:navigation'], undefined, 'imagesrcset means nothing on a link that loads nothing');
});

test('<iframe srcdoc>: its document is read as a page, against the page\'s base URL; its src, which a browser never loads then, is not', () => {
  const srcdoc = '<link rel=stylesheet href=frame.css><style>p { background: url(/bg.png) }</style><img src="pic.png" srcset="pic-2x.png 2x"><a href="/article">Read</a>';
  const html = `<base href="http://example.org/base/"><iframe srcdoc="${srcdoc.replace(/"/g, '&quot;')}" src="fallback.html"></iframe><img src="after.png">`;
  const { links } = extractHtml(html, PAGE);
  assert.deepEqual(links.map((l) => [l.url, l.kind, l.source]), [
    [u('/base/frame.css'), 'requisite', 'link@href'],
    [u('/bg.png'), 'requisite', 'style@url'],
    [u('/base/pic.png'), 'requisite', 'img@src'],
    [u('/base/pic-2x.png'), 'requisite', 'img@srcset'],
    [u('/article'), 'navigation', 'a@href'],
    [u('/base/after.png'), 'requisite', 'img@src'],
  ]);
  const empty = extractHtml('<iframe srcdoc="" src="/fallback.html"></iframe><iframe src="/only-src.html"></iframe>', PAGE).links;
  assert.deepEqual(empty.map((l) => l.url), [u('/only-src.html')], 'an empty srcdoc still wins over src; an iframe without one loads its src');
  assert.equal(links.find((l) => l.url === u('/article'))!.anchorText, 'Read');
  assert.equal(extractHtml(html, PAGE).text, '', 'the frame\'s text is no text of the page');
});

test('<iframe srcdoc> inside srcdoc is read a few levels deep, no further', () => {
  // Each level escapes the one inside it once more, as an author nesting them must.
  let doc = '<img src="/level-5.png">';
  for (let level = 4; level >= 1; level--) doc = `<img src="/level-${level}.png"><iframe srcdoc="${doc.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"></iframe>`;
  const urls = extractHtml(doc, PAGE).links.map((l) => l.url);
  assert.deepEqual(urls, [u('/level-1.png'), u('/level-2.png'), u('/level-3.png'), u('/level-4.png')], 'the page and three srcdoc levels');
  const long = `<iframe srcdoc="${'<b>x</b>'.repeat(40_000)}<img src=/far.png>"></iframe><img src="/near.png">`;
  assert.deepEqual(extractHtml(long, PAGE).links.map((l) => l.url), [u('/near.png')], 'a srcdoc is read up to a bound');
});
