import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cssReferences, extractCssLinks, extractHtml, unescapeCss } from '../../../worker/extract';

test('url() quoted and unquoted, @import with and without url(), comments skipped', () => {
  const css = `@import "a.css";
    @import url('b.css') screen;
    @IMPORT url(c.css);
    /* url(commented.png) @import "no.css"; */
    body { background: url( bg.png ) no-repeat; }
    .x { background-image: URL("x y.png"), url('q.png?v=1'); }
    .e { background: url(data:image/png;base64,AAAA) }
    .empty { background: url() }`;
  assert.deepEqual(cssReferences(css), [
    { url: 'a.css', via: 'import' },
    { url: 'b.css', via: 'import' },
    { url: 'c.css', via: 'import' },
    { url: 'bg.png', via: 'url' },
    { url: 'x y.png', via: 'url' },
    { url: 'q.png?v=1', via: 'url' },
    { url: 'data:image/png;base64,AAAA', via: 'url' },
  ]);
});

test('CSS escapes are undone', () => {
  assert.equal(unescapeCss('\\41 b\\(c\\)'), 'Ab(c)');
  assert.equal(unescapeCss('a\\\nb'), 'ab');
  assert.deepEqual(cssReferences(`url(im\\(1\\).png) url("q\\"uote.png") url(\\66 oo.png)`).map((r) => r.url), ['im(1).png', 'q"uote.png', 'foo.png']);
});

test('links resolve against the stylesheet URL and drop non-http schemes', () => {
  const links = extractCssLinks(`@import "../base.css"; a { background: url(/img/a.png) } b { background: url(data:,x) }`, 'http://example.org/css/site/main.css');
  assert.deepEqual(
    links.map((l) => [l.url, l.kind, l.source]),
    [
      ['http://example.org/css/base.css', 'requisite', 'css@import'],
      ['http://example.org/img/a.png', 'requisite', 'css@url'],
    ],
  );
});

test('broken CSS does not throw', () => {
  for (const css of ['url(', 'url("unterminated', '@import', '/* open comment url(x)', '\\', 'url(\\)']) {
    assert.doesNotThrow(() => extractCssLinks(css, 'http://example.org/'));
  }
  assert.deepEqual(cssReferences('/* open comment url(x.png)'), []);
  // Would backtrack exponentially if the escape branches overlapped (the end of the text closes it).
  assert.deepEqual(cssReferences(`url(${'\\6'.repeat(20000)}`).map((r) => r.url), ['\x06'.repeat(20000)]);
  assert.equal(cssReferences(`url(${'\\66 '.repeat(3)})`)[0].url, 'fff');
});

test('an unquoted url() holds no whitespace, quote or parenthesis, as in CSS Syntax', () => {
  const urls = (css: string) => cssReferences(css).map((r) => r.url);
  assert.deepEqual(urls('a { background: url(  a.png  ) }'), ['a.png']);
  // Bad urls: nothing is taken from them.
  assert.deepEqual(urls('url(a b.png) url(a(b).png) url(a"b.png) url() url(   )'), []);
  assert.deepEqual(urls('url(a\\ b.png) url(a\\(b\\).png) url(\\66\too.png)'), ['a b.png', 'a(b).png', 'foo.png']);
  // Runs that made the scanner backtrack: every "url(" scanned to the end, spaces split every way.
  assert.deepEqual(urls('url('.repeat(5000)), []);
  assert.deepEqual(urls(`url(${' '.repeat(5000)}`), []);
  assert.deepEqual(urls(`url(${'url('.repeat(1000)}x.png)`), ['x.png']);
});

test('a url() cut by the end of the text still names its URL, as CSS Syntax reads it; a newline in its string names nothing', () => {
  const refs = (css: string) => cssReferences(css).map((r) => [r.url, r.via]);
  // A style attribute and a stylesheet ending inside url(: browsers load both images.
  assert.deepEqual(refs('background-image:url(/bg-attr.png'), [['/bg-attr.png', 'url']]);
  assert.deepEqual(refs('body{background:url(/bg-css.png'), [['/bg-css.png', 'url']]);
  assert.deepEqual(refs('a{b:url( a.png  '), [['a.png', 'url']]);
  assert.deepEqual(refs(`a{b:url('a.png`), [['a.png', 'url']]);
  assert.deepEqual(refs('a{b:url("a.png" '), [['a.png', 'url']]);
  assert.deepEqual(refs('a{b:url("a.png\\'), [['a.png', 'url']]);
  assert.deepEqual(refs('@import url(x.css'), [['x.css', 'import']]);
  assert.deepEqual(refs('a{b:image-set(url(i.png'), [['i.png', 'url']]);
  // Still bad urls: a space inside an unquoted one, nothing in it at all.
  assert.deepEqual(refs('a{b:url(a b.png'), []);
  assert.deepEqual(refs('a{b:url(  '), []);
  // A quote left open ends at its line (a bad string), not at the end of the stylesheet.
  assert.deepEqual(refs('a{b:url("a.png }\nc{d:url(ok.png)}'), [['ok.png', 'url']]);
  assert.deepEqual(refs('a{b:url("a\nb.png")}'), []);
  const links = extractCssLinks('p{background:url(../img/cut.png', 'http://example.org/css/main.css');
  assert.deepEqual(links.map((l) => [l.url, l.kind, l.source]), [['http://example.org/img/cut.png', 'requisite', 'css@url']]);
});

test('image-set() and -webkit-image-set(): their strings are images, as their url()s are', () => {
  const refs = (css: string) => cssReferences(css).map((r) => [r.url, r.via]);
  assert.deepEqual(refs('a { background-image: image-set("a.png" 1x, "b.png" 2x) }'), [['a.png', 'image-set'], ['b.png', 'image-set']]);
  assert.deepEqual(refs(`a { background-image: -webkit-image-set('a.png' 1x, url(b.png) 2x, url("c.png") 3x) }`), [['a.png', 'image-set'], ['b.png', 'url'], ['c.png', 'url']]);
  // A type() names a MIME type, not an image; a comment names nothing.
  assert.deepEqual(refs(`a { background: image-set("a.avif" type("image/avif"), /* "no.png" */ 'a\\2e jpg' type('image/jpeg')) }`), [['a.avif', 'image-set'], ['a.jpg', 'image-set']]);
  // Unclosed: it ends with its declaration, and the strings after it are not images.
  assert.deepEqual(refs('a { b: image-set("a.png" 1x; } .c { content: "not"; background: url(d.png) }'), [['a.png', 'image-set'], ['d.png', 'url']]);
  assert.deepEqual(refs('a { b: image-set("a.png" 1x, "b.png'), [['a.png', 'image-set'], ['b.png', 'image-set']]);
  assert.deepEqual(refs('a { b: my-image-set("no.png") }'), []);
  const links = extractCssLinks('a { background: image-set("../i/a.png" 1x) }', 'http://example.org/css/main.css');
  assert.deepEqual(links.map((l) => [l.url, l.kind, l.source]), [['http://example.org/i/a.png', 'requisite', 'css@image-set']]);
});

test('@import: comments before its string, and a string cut by the end of the file', () => {
  const urls = (css: string) => cssReferences(css).map((r) => [r.url, r.via]);
  assert.deepEqual(urls('@import/**/"a.css"; @import /* x */ url(b.css); @import\n/* y */ /* z */\'c.css\';'), [['a.css', 'import'], ['b.css', 'import'], ['c.css', 'import']]);
  // CSS Syntax: a string unterminated at the end of the file is still a string…
  assert.deepEqual(urls('p { color: red }\n@import "x.css'), [['x.css', 'import']]);
  assert.deepEqual(urls("@import 'y.css\\"), [['y.css', 'import']]);
  // …but one cut by a newline is a bad string, which names nothing.
  assert.deepEqual(urls('@import "bad.css\n; p { background: url(ok.png) }'), [['ok.png', 'url']]);
});

test('image-set() and @import runs stay linear: every part is read once', () => {
  // Each would read to the end of the text from every occurrence if a failed attempt were retried
  // from the next one; 20,000 of them would then take seconds. Time is not asserted (the hostile
  // benchmark measures growth), the results are.
  assert.deepEqual(cssReferences('image-set('.repeat(20000)), []);
  assert.deepEqual(cssReferences(`-webkit-image-set(${"'a.png' 1x, ".repeat(20000)}`).length, 20000);
  assert.deepEqual(cssReferences('image-set(;'.repeat(20000)), []);
  assert.deepEqual(cssReferences('@import/*'.repeat(20000)), []);
  assert.deepEqual(cssReferences(`@import${' /**/'.repeat(20000)}`), []);
  // Only the last url("url(" is one: the end of the text closes it.
  assert.deepEqual(cssReferences(`image-set(${'url("'.repeat(20000)}`).map((r) => r.url), ['url(']);
});

test('@namespace names an XML namespace, not a resource: its URL is skipped, with or without a prefix', () => {
  const css = `@namespace url(http://www.w3.org/2000/svg);
    @NAMESPACE svg url("http://www.w3.org/2000/svg");
    @namespace /* default */ xlink /**/ url( 'http://www.w3.org/1999/xlink' );
    @namespace html "http://www.w3.org/1999/xhtml";
    @namespace sv\\67 url(http://ns.example/escaped);
    svg|rect { background: url(bg.png) }
    @namespace broken; .after { background: url(after.png) }`;
  assert.deepEqual(cssReferences(css), [
    { url: 'bg.png', via: 'url' },
    { url: 'after.png', via: 'url' },
  ]);
  assert.deepEqual(extractCssLinks(css, 'http://example.org/s.css').map((l) => l.url), ['http://example.org/bg.png', 'http://example.org/after.png']);
  // A long prefix that names no URL is read once, not again from each "@namespace" escaped inside it.
  assert.deepEqual(cssReferences(`@namespace a${'\\@namespace'.repeat(20000)}; p { background: url(x.png) }`).map((r) => r.url), ['x.png']);
});

// Found in review: a mask or a gradient fill given as url(#id) was queued as the stylesheet (or the
// page, from a style attribute) itself, a requisite of its own.
test('url(#id) names an element of the document, not a resource: no link', () => {
  assert.deepEqual(extractCssLinks('rect { mask: url(#m) } .a { fill: url( "#g" ) } .b { background: url(b.png#frag) }', 'http://example.org/s.css').map((l) => l.url), ['http://example.org/b.png']);
  assert.deepEqual(extractHtml('<svg><rect style="fill: url(#g)"/></svg>', 'http://example.org/p.html').links, []);
});
