import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractMainContent } from '../../../worker/text';
import { collapseWhitespace } from '../../../worker/text/main-content';

const PAGE = `<!doctype html><html><head><title> Rising seas </title><style>p{color:red}</style>
<script>var tracking = "ocean";</script></head>
<body class="has-sidebar">
  <header><a href="/">Home</a> <a href="/about">About us</a></header>
  <nav><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav>
  <div class="cookie-banner">We use cookies to improve your experience.</div>
  <div class="main-menu"><a href="/x">Menu entry</a></div>
  <article>
    <h1>Oceans are rising</h1>
    <p>The oceans are rising faster than predicted, scientists warned on Monday.</p>
    <p>Coastal cities such as <a href="/jakarta">Jakarta</a> are sinking while glaciers melt in Greenland.</p>
  </article>
  <aside><p>Most read: celebrity gossip</p></aside>
  <div id="ad-slot-1"><p>Buy cheap watches now</p></div>
  <form><input name="q"><p>Search the site</p></form>
  <footer><p>Copyright 2024 Example News</p></footer>
</body></html>`;

test('main content keeps the article and drops navigation, header, footer, ads, forms, scripts', () => {
  const main = extractMainContent(PAGE);
  assert.equal(main.title, 'Rising seas');
  assert.deepEqual(main.paragraphs, [
    'Oceans are rising',
    'The oceans are rising faster than predicted, scientists warned on Monday.',
    'Coastal cities such as Jakarta are sinking while glaciers melt in Greenland.',
  ]);
  for (const gone of ['Home', 'News', 'cookies', 'Menu entry', 'celebrity', 'watches', 'Search', 'Copyright', 'tracking', 'color']) {
    assert.ok(!main.text.includes(gone), `${gone} should be gone`);
  }
});

test('link lists without a nav element are dropped by link density', () => {
  const html = `<body><div><p>Long reading about the history of lighthouses on the northern coast and their keepers.</p>
    <p>Keepers lived in the towers for months, trimming wicks and logging ships.</p></div>
    <div><a href="/1">One</a> <a href="/2">Two</a> <a href="/3">Three</a> <a href="/4">Four</a></div></body>`;
  const main = extractMainContent(html);
  assert.ok(main.text.includes('lighthouses'));
  assert.ok(!main.text.includes('Three'));
});

test('only the densest containers stay: a short teaser block elsewhere is dropped', () => {
  const long = 'Word '.repeat(200);
  const html = `<body><div class="content"><p>${long}</p><p>${long}</p></div><div class="teaser"><p>Short teaser text</p></div></body>`;
  const main = extractMainContent(html);
  assert.equal(main.paragraphs.length, 2);
  assert.ok(!main.text.includes('teaser'));
});

test('entities are decoded and whitespace collapsed', () => {
  const main = extractMainContent('<p>Fish &amp; chips\n\n   are   &quot;good&quot;</p>');
  assert.equal(main.text, 'Fish & chips are "good"');
});

test('character references in text, title and class names are decoded', () => {
  const html = `<html><head><title>Tides &amp; charts</title></head><body>
    <div class="nav&#x2D;bar"><p>Home &middot; About &middot; Contact us here today</p></div>
    <article><p>Fish &amp; chips at the caf&eacute; by the estuary, where &lt;harbour&gt; records are kept &#8212; since 1820.</p></article>
  </body></html>`;
  const { title, text } = extractMainContent(html);
  assert.equal(title, 'Tides & charts');
  assert.ok(text.includes('Fish & chips at the café by the estuary, where <harbour> records are kept — since 1820.'), text);
  assert.ok(!text.includes('Contact'), 'class="nav&#x2D;bar" is nav-bar: boilerplate');
});

test('each kind of HTML whitespace run collapses to one space; single spaces and no-break spaces stay', () => {
  for (const [raw, collapsed] of [
    ['a\nb', 'a b'], ['a\tb', 'a b'], ['a\rb', 'a b'], ['a\fb', 'a b'], ['a  b', 'a b'],
    ['a \n\t b', 'a b'], ['a b c', 'a b c'], ['a\u00a0\u00a0b', 'a\u00a0\u00a0b'], ['', ''],
  ]) {
    assert.equal(collapseWhitespace(raw!), collapsed, JSON.stringify(raw));
  }
});
