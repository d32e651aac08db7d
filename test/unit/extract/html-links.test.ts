import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import assert from 'node:assert/strict';
import { extractHtml } from '../../../worker/extract';
import { extractMainContent } from '../../../worker/text';
import { bySource } from '../../support/links-by-source';

const PAGE = 'http://example.org/dir/page.html';

test('every HTML link source, with its kind', () => {
  const html = `<html><head>
    <link rel="stylesheet" href="s.css"><link rel="icon" href="/favicon.ico">
    <link rel="alternate" type="application/rss+xml" href="/rss"><link rel="alternate" type="application/atom+xml" href="/atom">
    <link rel="next" href="p2.html"><link rel="preconnect" href="https://cdn.example.net">
    <meta http-equiv="refresh" content="3; URL='/moved'">
    <script src="app.js"></script></head>
    <body background="bg.gif">
    <a href="a.html">A</a><map><area href="area.html" alt="Region"></map>
    <img src="img.png" srcset="img-2x.png 2x"><picture><source srcset="pic.webp 1x, pic2.webp 2x"><img src="pic.jpg"></picture>
    <iframe src="frame.html"></iframe><frameset><frame src="fr.html"></frameset>
    <embed src="movie.swf"><object data="obj.svg"></object>
    <video src="v.mp4" poster="poster.jpg"><source src="v.webm"><track src="subs.vtt"></video>
    <audio src="a.mp3"></audio>
    <form action="/search"><input type="image" src="go.png"></form><form method="POST" action="/login"></form><form method="get" action="/find"></form>
    <div style="background: url('div-bg.png')">x</div>
    <style>@import "imported.css"; p { background: url(p-bg.png) }</style>
    </body></html>`;
  const { links } = extractHtml(html, PAGE);
  const s = bySource(links);
  const u = (p: string) => `http://example.org${p}`;
  assert.deepEqual(s['link@href:requisite'], [u('/dir/s.css'), u('/favicon.ico')]);
  assert.deepEqual(s['link@href:feed'], [u('/rss'), u('/atom')]);
  assert.deepEqual(s['link@href:navigation'], [u('/dir/p2.html')]);
  assert.deepEqual(s['meta@refresh:redirect'], [u('/moved')]);
  assert.deepEqual(s['script@src:requisite'], [u('/dir/app.js')]);
  assert.deepEqual(s['body@background:requisite'], [u('/dir/bg.gif')]);
  assert.deepEqual(s['a@href:navigation'], [u('/dir/a.html')]);
  assert.deepEqual(s['area@href:navigation'], [u('/dir/area.html')]);
  assert.deepEqual(s['img@src:requisite'], [u('/dir/img.png'), u('/dir/pic.jpg')]);
  assert.deepEqual(s['img@srcset:requisite'], [u('/dir/img-2x.png')]);
  assert.deepEqual(s['source@srcset:requisite'], [u('/dir/pic.webp'), u('/dir/pic2.webp')]);
  assert.deepEqual(s['iframe@src:requisite'], [u('/dir/frame.html')]);
  assert.deepEqual(s['frame@src:requisite'], [u('/dir/fr.html')]);
  assert.deepEqual(s['embed@src:requisite'], [u('/dir/movie.swf')]);
  assert.deepEqual(s['object@data:requisite'], [u('/dir/obj.svg')]);
  assert.deepEqual(s['video@src:requisite'], [u('/dir/v.mp4')]);
  assert.deepEqual(s['video@poster:requisite'], [u('/dir/poster.jpg')]);
  assert.deepEqual(s['source@src:requisite'], [u('/dir/v.webm')]);
  assert.deepEqual(s['track@src:requisite'], [u('/dir/subs.vtt')]);
  assert.deepEqual(s['audio@src:requisite'], [u('/dir/a.mp3')]);
  assert.deepEqual(s['form@action:form'], [u('/search'), u('/find')]);
  assert.deepEqual(s['input@src:requisite'], [u('/dir/go.png')]);
  assert.deepEqual(s['div@style:requisite'], [u('/dir/div-bg.png')]);
  assert.deepEqual(s['style@import:requisite'], [u('/dir/imported.css')]);
  assert.deepEqual(s['style@url:requisite'], [u('/dir/p-bg.png')]);
  assert.ok(!links.some((l) => l.url.includes('login')), 'POST forms are not links');
  assert.ok(!links.some((l) => l.url.includes('cdn.example.net')), 'preconnect hints are not links');
});

test("base href changes the resolution of the document's links; only the first counts", () => {
  const html = `<a href="before.html">x</a><base href="http://other.example/base/"><base href="/ignored/"><a href="after.html">y</a><img src="/abs.png">`;
  const r = extractHtml(html, PAGE);
  assert.deepEqual(r.links.map((l) => l.url), ['http://other.example/base/before.html', 'http://other.example/base/after.html', 'http://other.example/abs.png']);
  assert.equal(r.baseUrl, 'http://other.example/base/');
});

test('meta refresh is read as the HTML standard reads it: an empty URL is a reload, a quoted one ends at its quote', () => {
  const refresh = (content: string) => extractHtml(`<meta http-equiv="refresh" content="${content.replace(/"/g, '&quot;')}">`, PAGE).links.map((l) => l.url);
  const u = (p: string) => `http://example.org${p}`;
  for (const content of ['0; url=/next', '0;URL=/next', '0,url=/next', '5 ; url = /next', "0; url='/next'", '0; url="/next" ', "0; url='/next'; junk", '0;/next', '0.5; URL=/next'])
    assert.deepEqual(refresh(content), [u('/next')], content);
  // The page itself, reloaded: no new link.
  for (const content of ['5', '5;', '0; url=', "0;url=''", '0; URL="  "', '0; url= '])
    assert.deepEqual(refresh(content), [], content);
  // Not a refresh at all: browsers do nothing with these either.
  for (const content of ['url=/next', '5x; url=/next', '']) assert.deepEqual(refresh(content), [], content);
  assert.deepEqual(refresh("0; url=/it's"), [u("/it's")], 'an unquoted URL keeps its quotes');
});

test('anchor text and paragraph context', () => {
  const html = `<div><h1>Storm surge</h1>
    <p>The barrier closed twice in   January.
    Read <a href="/report">the <b>full</b>
    report</a> for gauge data.</p>
    <ul><li>Archive: <a href="/2023">last year</a></li></ul>
    <a href="/img-link"><img src="i.png" alt="Tide chart"></a>
    <p>${'word '.repeat(300)}<a href="/deep">deep link</a>${' tail'.repeat(300)}</p></div>`;
  const { links } = extractHtml(html, PAGE);
  const get = (p: string) => links.find((l) => l.url === `http://example.org${p}`)!;
  assert.equal(get('/report').anchorText, 'the full report');
  assert.equal(get('/report').context, 'The barrier closed twice in January. Read the full report for gauge data.');
  assert.equal(get('/2023').anchorText, 'last year');
  assert.equal(get('/2023').context, 'Archive: last year');
  assert.equal(get('/img-link').anchorText, 'Tide chart', 'an image link takes the alt text');
  const deep = get('/deep').context;
  assert.ok(deep.length <= 500 && deep.length > 400, `context is a window, got ${deep.length}`);
  assert.ok(deep.includes('deep link'), 'the window is around the anchor');
  // Cut at word boundaries: it starts and ends with whole words.
  assert.match(deep, /^(word|deep|tail)\b.*\b(word|link|tail)$/);
});

test('a block without spaces: each context is the window around its anchor, cut mid-word', () => {
  const html = `<p>${Array.from({ length: 3000 }, (_, i) => `<a href="/p${i}">L${i}</a>`).join('')}</p>`;
  const { links } = extractHtml(html, PAGE);
  assert.equal(links.length, 3000);
  for (const i of [0, 1500, 2999]) {
    const { context } = links[i]!;
    assert.equal(context.length, 500);
    assert.ok(context.includes(`L${i}L`) || (i === 2999 && context.endsWith('L2999')), `link ${i}: ${context.slice(0, 40)}…`);
  }
});

test('text: false finds the same links without text, anchor texts or contexts (alt text still names an image link)', () => {
  const html = `<html><head><title>Tides</title><style>.x{background:url(/bg.png)}</style></head><body>
    <p>Read <a href="/report">the report</a> now.</p><a href="/img-link"><img src="i.png" alt="Tide chart"></a>
    <div style="background:url(/inline.png)">text</div><meta name="robots" content="nofollow"></body></html>`;
  const full = extractHtml(html, PAGE);
  const lean = extractHtml(html, PAGE, { text: false });
  assert.deepEqual(lean.links.map((l) => [l.url, l.kind, l.source]), full.links.map((l) => [l.url, l.kind, l.source]));
  assert.ok(full.links.length >= 5 && full.text.includes('Read the report now'));
  assert.equal(lean.text, '');
  assert.equal(lean.title, 'Tides');
  const get = (p: string) => lean.links.find((l) => l.url === `http://example.org${p}`)!;
  assert.deepEqual([get('/report').anchorText, get('/report').context], ['', '']);
  assert.equal(get('/img-link').anchorText, 'Tide chart');
  assert.equal(lean.metaRobots.nofollow, true);
});

test('duplicates keep the first occurrence with the longest anchor text', () => {
  const html = `<p>one <a href="/x">x</a></p><p>two <a href="/x#frag">the longer x text</a></p><a href="/y">y</a>`;
  const { links } = extractHtml(html, PAGE);
  assert.equal(links.length, 2);
  assert.deepEqual({ ...links[0] }, { url: 'http://example.org/x', kind: 'navigation', source: 'a@href', anchorText: 'the longer x text', context: 'one x' });
});

test('srcset with commas inside URLs, descriptors and junk', () => {
  const html = `<img srcset="a,b.png 1x, c.png 2x,d.png, e.png (max-width: 10px) 100w">`;
  const { links } = extractHtml(html, PAGE);
  assert.deepEqual(links.map((l) => l.url.replace('http://example.org/dir/', '')), ['a,b.png', 'c.png', 'd.png', 'e.png']);
});

test('title, visible text without script/style, and robots directives', () => {
  const html = `<html><head><title>  Tide
    tables </title><meta name="ROBOTS" content="NoIndex, NoFollow"><style>p{}</style><script>var a = "<a href='x.html'>"</script></head>
    <body><svg><title>icon</title></svg><p>Hello&nbsp;<b>world</b></p><p>again</p><a href="/n" rel="nofollow">n</a></body></html>`;
  const r = extractHtml(html, PAGE);
  assert.equal(r.title, 'Tide tables');
  assert.equal(r.text, 'Hello\u00a0world again n');
  assert.deepEqual(r.metaRobots, { noindex: true, nofollow: true });
  assert.deepEqual(r.links.map((l) => [l.url, l.nofollow]), [['http://example.org/n', true]]);
  const plain = extractHtml('<a href="/a" rel="nofollow">a</a><a href="/b">b</a>', PAGE);
  assert.deepEqual(plain.links.map((l) => Boolean(l.nofollow)), [true, false]);
  assert.deepEqual(plain.metaRobots, { noindex: false, nofollow: false });
});

test('non-http and in-page links are dropped; entities are decoded', () => {
  const html = `<a href="javascript:go()">j</a><a href="mailto:a@b.c">m</a><a href="#top">t</a><a href="tel:123">t</a>
    <a href="data:text/html,x">d</a><a href="/q?a=1&amp;b=2">q</a><a href=" /spaced ">s</a>`;
  assert.deepEqual(extractHtml(html, PAGE).links.map((l) => l.url), ['http://example.org/q?a=1&b=2', 'http://example.org/spaced']);
});

test('an in-page anchor is dropped unless a <base href> makes it name another document', () => {
  const links = (html: string, opts = {}) => extractHtml(html, PAGE, opts).links.map((l) => [l.url, l.anchorText]);
  // "#top" resolves against the base: with <base href="/other/"> it names /other/, not this page.
  assert.deepEqual(links('<a href="#top">this page</a><base href="/other/"><a href="#top">back to the section index</a> <a href=" #x ">x</a> <a href="page">control</a>'), [
    ['http://example.org/other/', 'back to the section index'],
    ['http://example.org/other/page', 'control'],
  ]);
  // A base naming this page (whatever its fragment, or a query the crawl strips) keeps them in-page.
  assert.deepEqual(links('<base href="page.html#main"><a href="#top">t</a><a href="x.html">x</a>'), [['http://example.org/dir/x.html', 'x']]);
  assert.deepEqual(links('<base href="page.html?lang=en"><a href="#top">t</a>', { queryHandling: 'strip' }), []);
  assert.deepEqual(links('<base href="page.html?lang=en"><a href="#top">t</a>'), [['http://example.org/dir/page.html?lang=en', 't']]);
});

test('query handling is applied to extracted links', () => {
  const { links } = extractHtml('<a href="/s?z=1&a=2">s</a>', PAGE, { queryHandling: 'sort' });
  assert.equal(links[0].url, 'http://example.org/s?a=2&z=1');
});

test('malformed HTML and binary junk never throw', () => {
  const junk = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)).toString('latin1');
  const cases = [
    '<p><a href="/a">unclosed <div><li><a href="/b">nested <a href="/c">c',
    '<a href=/x>one</b></i></p></a></a></div></td></table>',
    '<<<>>><a href="<>">x</a><img src=""><img srcset=",,,"><a href>',
    '<title>never closed <a href="/t">',
    '<style>url(', '<script>', '<!--', '<![CDATA[', '<constructor><__proto__ href="x"><toString>',
    junk,
    '\u0000\ufffd<a href="\u0000/n">n</a>',
  ];
  for (const html of cases) assert.doesNotThrow(() => extractHtml(html, PAGE), html.slice(0, 40));
  assert.deepEqual(extractHtml(cases[0], PAGE).links.map((l) => l.url.slice(-2)), ['/a', '/b', '/c']);
});

test('character references in attribute values, titles and text are decoded as a browser does', () => {
  const html = `<title>Tides &lt;&amp;&gt; Charts</title><p>
    <a href="/a?x=1&amp;y=2">Fish &amp; chips &#x41;&#66;</a>
    <a href="/b?q=1&copy=2">attribute rule: &copy followed by = stays</a>
    <a href="/c?&#99;=&notin;">caf&eacute;</a><style>.x{background:url(/bg.png?a=1&amp;b=2)}</style></p>`;
  const { links, title, text } = extractHtml(html, PAGE);
  const byPath = (p: string) => links.find((l) => l.url.startsWith(`http://example.org${p}`));
  assert.equal(title, 'Tides <&> Charts');
  assert.equal(byPath('/a')?.url, 'http://example.org/a?x=1&y=2');
  assert.equal(byPath('/a')?.anchorText, 'Fish & chips AB');
  assert.equal(byPath('/b')?.url, 'http://example.org/b?q=1&copy=2');
  assert.equal(byPath('/c')?.url, 'http://example.org/c?c=%E2%88%89');
  assert.equal(byPath('/c')?.anchorText, 'café');
  assert.ok(text.includes('Fish & chips AB') && !text.includes('&amp;'));
  assert.ok(byPath('/bg.png?a=1&amp;b=2'), 'style text is raw: no character references there');
});

test('the main content built in the link pass is what a parse of its own gives, and is skipped with text off', () => {
  const pages = [
    `<html><head><title>Tides</title></head><body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
      <article><h1>Spring tides</h1><p>Spring tides follow the new and the full moon &amp; reach the
      <a href="/marks">highest marks</a> of the month.</p><p>Neap tides come between them.</p></article>
      <div class="sidebar"><p>Most read</p></div><footer>© Harbour office</footer></body></html>`,
    `<body><div><p>Unclosed paragraph<div class=nav><a href=x>x</a></div><p>Second <b>bold <i>nested</b> text<br>after</div>`,
    `<table><tr><td>Cell one text here<td>Cell two with a <a href="/l">link</a></table><p>Tail&nbsp;text</p>`,
  ];
  for (const html of pages) {
    assert.equal(extractHtml(html, PAGE).mainText, extractMainContent(html).text, html);
    assert.equal(extractHtml(html, PAGE, { text: false }).mainText, '');
  }
  assert.match(extractHtml(pages[0], PAGE).mainText, /^Spring tides\n\nSpring tides follow the new and the full moon & reach the highest marks of the month\.\n\nNeap tides come between them\.$/);
});

test('a second pass given the resolutions of the first finds the same links, and resolves nothing again', () => {
  const html = `<p>See <a href="a.html">A</a>, <a href=" /b?x=1 ">B</a> and <a href="mailto:x@y">mail</a>.</p><img src="../img/c.png" alt="C"><a href="a.html">A again</a>`;
  const first = extractHtml(html, PAGE, { text: false });
  assert.deepEqual([...first.resolved.keys()].sort(), ['../img/c.png', '/b?x=1', 'a.html', 'mailto:x@y']);
  const second = extractHtml(html, PAGE, { text: true, resolved: first.resolved });
  assert.deepEqual(second.links.map((l) => l.url), first.links.map((l) => l.url));
  // What it is given is what it uses: a resolution that differs shows up in the links.
  const altered = new Map(first.resolved).set('a.html', 'http://elsewhere.test/a');
  assert.equal(extractHtml(html, PAGE, { resolved: altered }).links[0]!.url, 'http://elsewhere.test/a');
});

test('after a <base href> there are no resolutions to hand on (references before it resolved differently)', () => {
  const page = extractHtml('<link rel="stylesheet" href="s.css"><base href="http://other.test/x/"><a href="s.css">s</a>', PAGE);
  assert.equal(page.resolved.size, 0);
  assert.deepEqual(page.links.map((l) => l.url), ['http://example.org/dir/s.css', 'http://other.test/x/s.css']);
});

test('markup: false leaves the markup summary empty and changes nothing else', () => {
  const html = '<html><body class="x"><p id="p1">Tide <a href="/t" title="T">tables</a></p></body></html>';
  const withMarkup = extractHtml(html, PAGE);
  const without = extractHtml(html, PAGE, { markup: false });
  assert.ok(withMarkup.markup.elementNames.has('p') && withMarkup.markup.attributeValues.includes('p1'));
  assert.equal(without.markup.elementNames.size + without.markup.attributeNames.size + without.markup.attributeValues.length, 0);
  assert.deepEqual({ ...without, markup: null }, { ...withMarkup, markup: null });
});

test('a page title kept after extraction does not keep the page alive', () => {
  // V8 keeps the whole string a slice was cut from: 300 titles cut from 40 KB pages would hold 12 MB.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const filler = `<p>${'harbour tide chart '.repeat(2100)}</p>`;
  gc();
  const before = process.memoryUsage().heapUsed;
  const titles: string[] = [];
  for (let i = 0; i < 300; i++) {
    const html = new TextDecoder().decode(Buffer.from(`<html><head><title>Harbour bulletin number ${i}</title></head><body>${filler}</body></html>`));
    titles.push(extractHtml(html, PAGE).title);
  }
  gc();
  const heldMb = (process.memoryUsage().heapUsed - before) / 1e6;
  assert.equal(titles[299], 'Harbour bulletin number 299');
  assert.ok(heldMb < 4, `300 titles hold ${heldMb.toFixed(1)} MB of the heap`);
});

test('a URL the page links to and also uses as a requisite is a requisite, in the place of its first occurrence', () => {
  const html = `<a href="http://cdn.test/full.jpg">Full size</a> <a href="/next">next</a>
    <a href="http://cdn.test/full.jpg"><img src="http://cdn.test/full.jpg" alt="Harbour"></a>
    <img src="/logo.png"><a href="/logo.png">logo</a>`;
  const { links } = extractHtml(html, PAGE);
  assert.deepEqual(links.map((l) => [l.url, l.kind, l.source, l.anchorText]), [
    ['http://cdn.test/full.jpg', 'requisite', 'img@src', 'Full size'],
    ['http://example.org/next', 'navigation', 'a@href', 'next'],
    ['http://example.org/logo.png', 'requisite', 'img@src', 'logo'],
  ]);
});

test('a reference keeps the non-ASCII spaces at its ends, as browsers do; only ASCII whitespace is stripped', () => {
  // What Chromium resolved and requested, from a loopback server's log.
  const html = '<a href="/n/a&nbsp;">a</a><a href="\u3000/n/b">b</a><a href="\ufeff/n/c">c</a><a href=" /n/d\u00a0\n">d</a><a href="&#xa0;">e</a>'
    + '<meta http-equiv=refresh content="0;url=&nbsp;/n/refresh"><img srcset="\u00a0/s.png 1x"><style>p{background:url("\u00a0/css.png")}</style>';
  assert.deepEqual(extractHtml(html, PAGE).links.map((l) => l.url), [
    'http://example.org/n/a%C2%A0', 'http://example.org/dir/%E3%80%80/n/b', 'http://example.org/dir/%EF%BB%BF/n/c', 'http://example.org/n/d%C2%A0',
    'http://example.org/dir/%C2%A0', 'http://example.org/dir/%C2%A0/n/refresh', 'http://example.org/dir/%C2%A0/s.png', 'http://example.org/dir/%C2%A0/css.png',
  ]);
});

test('a <base href> after some links applies to them too, as in a browser; a requisite keeps the URL it was loaded at first', () => {
  // Chromium: both anchors under /base/; the image requested at /dir/ (before the base was parsed), then at /base/.
  const html = '<body><a href="before">before</a><img src="img-before.png"><base href="/base/"><a href="after">after</a><base href="/ignored/"></body>';
  const r = extractHtml(html, PAGE);
  assert.deepEqual(r.links.map((l) => `${l.kind} ${l.url}`), [
    'navigation http://example.org/base/before', 'requisite http://example.org/dir/img-before.png', 'requisite http://example.org/base/img-before.png', 'navigation http://example.org/base/after',
  ]);
  assert.equal(r.links[0]!.anchorText, 'before');
  assert.deepEqual(r.resolved, new Map());
  const early = extractHtml('<head><base href="/base/"></head><body><a href="x">x</a></body>', PAGE);
  assert.deepEqual(early.links.map((l) => l.url), ['http://example.org/base/x']);
});

// Found by a differential exploration: the late base (51c970a) left in-page anchors and submitted forms above it as
// they were. Chromium 150 (a loopback server's log, the elements' href and action, form.submit()): "#x" above
// <base href="/base/"> is /base/#x, the form above it submits to /base/act?q=1, one open across it too; the
// style attribute's and the <style> block's images are requested at /dir/ only, even for a rule applied later.
test('a late <base href> applies to the in-page anchors and GET forms above it too; CSS above it keeps the page URL, as in Chromium', () => {
  const html = '<body><p>Jump to <a href="#x">the section</a></p><div style="background:url(attr.png)"></div><style>p{background:url(style.png)}</style>'
    + '<form action="act"><input name=q value=1></form><form action="open"><base href="/base/"><input name=q value=2></form><a href="#y">y</a><base href="/ignored/"></body>';
  const links = (submitForms: boolean) => extractHtml(html, PAGE, { submitForms }).links.map((l) => `${l.kind} ${l.url} ${l.anchorText}`.trim());
  assert.deepEqual(links(true), [
    'navigation http://example.org/base/ the section', 'requisite http://example.org/dir/attr.png', 'requisite http://example.org/dir/style.png',
    'form http://example.org/base/act?q=1', 'form http://example.org/base/open?q=2',
  ]);
  assert.deepEqual(links(false).filter((l) => l.startsWith('form')), ['form http://example.org/base/act', 'form http://example.org/base/open']);
  assert.equal(extractHtml(html, PAGE).links[0]!.context, 'Jump to the section', 'the anchor keeps its paragraph');
  // No base, or one naming this page: in-page anchors stay out, wherever they are.
  assert.deepEqual(extractHtml('<a href="#x">x</a><a href="a">a</a>', PAGE).links.map((l) => l.url), ['http://example.org/dir/a']);
  assert.deepEqual(extractHtml('<a href="#x">x</a><base href="page.html#top"><a href="#y">y</a>', PAGE).links, []);
  assert.deepEqual(extractHtml('<iframe srcdoc="<a href=#x>x</a>"></iframe><base href="/base/">', PAGE).links, [], 'a srcdoc document has its own anchors');
});

test('with scope.submitGetForms, a GET form is queued as the URL a browser submits with its default values, in the page encoding', () => {
  // What Chromium requested on form.submit(), from a loopback server's log.
  const form = '<form action="/search?page=2#f"><input name="q" value="a b&amp;c=d+é"><input type=hidden name=h value="1"><input type=password name=pw value=s><input type=checkbox name=c1 checked><input type=checkbox name=c2 value=v2><input type=radio name=r value=r1><input type=radio name=r value=r2 checked><input type=submit name=go value=Go><input type=file name=f><input name=dis value=x disabled><input value=noname>'
    + '<select name=s1><option>One  two</option><option selected value=2>Two</option></select><select name=s2><option disabled>x<option>First<option>Second</select><select name=s3 multiple><option selected>a<option>b<option selected>c</select>'
    + '<textarea name=t>\nline1\nline2 é</textarea><button name=b value=1>b</button><input type=image name=img src=/x.png></form>';
  const formUrl = (html: string, encoding?: string) => extractHtml(html, PAGE, { encoding, submitForms: true }).links.filter((l) => l.kind === 'form').map((l) => l.url);
  assert.deepEqual(formUrl(form), ['http://example.org/search?q=a+b%26c%3Dd%2B%C3%A9&h=1&pw=s&c1=on&r=r2&f=&s1=2&s2=First&s3=a&s3=c&t=line1%0D%0Aline2+%C3%A9']);
  assert.deepEqual(formUrl(form.replace('é"', 'é&#20013;"'), 'windows-1252'), ['http://example.org/search?q=a+b%26c%3Dd%2B%E9%26%2320013%3B&h=1&pw=s&c1=on&r=r2&f=&s1=2&s2=First&s3=a&s3=c&t=line1%0D%0Aline2+%E9']);
  assert.deepEqual(formUrl('<base href="/b/"><form><input name=q value=1></form>'), ['http://example.org/dir/page.html?q=1'], 'no action: the page itself');
  assert.deepEqual(formUrl('<form action="/s?x=1" method=post><input name=q></form><form action="/t?x=1"></form>'), ['http://example.org/t'], 'POST is not crawled; an empty form set empties the query');
});

// Found by an exploratory session: submitting every GET form (each page's sort form, a site search
// with the page in a hidden field) fetched each page again and one search per page: 186 fetches for
// a 61-page site. By default a form is its action as written, as Heritrix takes it.
test('by default a GET form is its action as written, none without one, as Heritrix takes it', () => {
  const forms = (html: string) => extractHtml(html, PAGE).links.filter((l) => l.kind === 'form').map((l) => l.url);
  assert.deepEqual(forms('<form action="/search?page=2"><input name=q value=x></form><form><select name=sort><option>date</select></form><form method=post action="/login"></form>'), ['http://example.org/search?page=2']);
  // A method that is empty or invalid is GET, as in a browser; POST and dialog are not crawled.
  assert.deepEqual(forms('<form method="" action="/a"></form><form method="foo" action="/b"></form><form method=dialog action="/c"></form><form method=" POST " action="/d"></form>'), ['http://example.org/a', 'http://example.org/b']);
});

test('maxLinks keeps the first links in document order and counts the references past them, unresolved', () => {
  const html = '<a href="/a">a</a><img src="/i.png"><a href="/a">a again</a><a href="/b">b</a><a href="/c">c</a><a href="/b">b</a><a href="/i.png">i</a>';
  const capped = extractHtml(html, 'http://h.test/', { maxLinks: 2 });
  assert.deepEqual(capped.links.map((l) => l.url), ['http://h.test/a', 'http://h.test/i.png']);
  assert.equal(capped.links[0]!.anchorText, 'a again', 'a repeat of a kept link still counts');
  assert.equal(capped.links[1]!.kind, 'requisite');
  assert.equal(capped.linksLeftOut, 3, '/b twice and /c, as written');
  assert.equal(capped.resolved.has('/b'), false, 'past the cap nothing is resolved');
  assert.equal(extractHtml(html, 'http://h.test/').linksLeftOut, 0);
  // Links from CSS past the cap are cut at the end too.
  const styled = extractHtml('<a href="/a">a</a><div style="background:url(/x.png)"></div><style>b{background:url(/y.png)}</style>', 'http://h.test/', { maxLinks: 1 });
  assert.deepEqual([styled.links.map((l) => l.url), styled.linksLeftOut], [['http://h.test/a'], 2]);
});
