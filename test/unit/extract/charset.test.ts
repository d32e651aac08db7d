import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeText, sniffCharset } from '../../../worker/extract';

const latin1Page = (meta: string) => Buffer.concat([Buffer.from(`<html><head>${meta}</head><body>caf`), Buffer.from([0xe9]), Buffer.from('</body></html>')]);

test('charset from the Content-Type header', () => {
  assert.equal(sniffCharset(Buffer.from('<p>x</p>'), 'text/html; charset=ISO-8859-1'), 'windows-1252');
  assert.equal(sniffCharset(Buffer.from('<p>x</p>'), 'text/html;charset="Shift_JIS"'), 'shift_jis');
  assert.equal(sniffCharset(Buffer.from('<p>x</p>'), 'text/html; charset=utf8'), 'utf-8');
  // The header wins over a meta declaration.
  assert.equal(sniffCharset(latin1Page('<meta charset="utf-8">'), 'text/html; charset=iso-8859-2'), 'iso-8859-2');
});

test('charset from a byte order mark (wins over everything)', () => {
  assert.equal(sniffCharset(Buffer.from([0xef, 0xbb, 0xbf, 0x3c]), 'text/html; charset=iso-8859-1'), 'utf-8');
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>h\u00e9</p>', 'utf16le')]);
  assert.equal(sniffCharset(utf16, null), 'utf-16le');
  assert.equal(decodeText(utf16, null), '<p>h\u00e9</p>');
  assert.equal(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x41]), null), 'A', 'the BOM is removed');
});

test('charset from <meta charset>, <meta http-equiv> and the XML declaration', () => {
  assert.equal(sniffCharset(latin1Page('<meta charset="iso-8859-15">'), 'text/html'), 'iso-8859-15');
  assert.equal(sniffCharset(latin1Page(`<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">`), 'text/html'), 'windows-1251');
  assert.equal(sniffCharset(latin1Page('<meta charset=utf-16>'), null), 'utf-8', 'a meta cannot declare UTF-16');
  assert.equal(sniffCharset(Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><rss/>'), 'application/xml'), 'windows-1252');
  // Read as ASCII, the declaration is in no UTF-16 document (a real one would start with a BOM or
  // "<\0?\0"): decoded as UTF-16, this sitemap was one line of CJK characters without a link.
  const xml16 = Buffer.from('<?xml version="1.0" encoding="UTF-16"?><urlset><url><loc>http://example.org/a</loc></url></urlset>');
  assert.equal(sniffCharset(xml16, 'application/xml'), 'utf-8', 'an ASCII XML declaration cannot declare UTF-16');
  assert.match(decodeText(xml16, 'application/xml'), /<loc>http:\/\/example\.org\/a<\/loc>/);
  assert.equal(decodeText(latin1Page('<meta charset="iso-8859-1">'), 'text/html').includes('caf\u00e9'), true);
  const late = Buffer.concat([Buffer.from(' '.repeat(5000)), Buffer.from('<meta charset="koi8-r">')]);
  assert.equal(sniffCharset(late, null), 'windows-1252', 'declarations past the prescan window are not seen');
});

test('unknown or wrong labels fall back safely', () => {
  assert.equal(sniffCharset(latin1Page(''), 'text/html; charset=no-such-charset'), 'windows-1252');
  assert.equal(sniffCharset(latin1Page('<meta charset="bogus"><meta charset="utf-8">'), 'text/html'), 'utf-8');
  assert.equal(sniffCharset(Buffer.from('plain'), 'text/html; charset=replacement'), 'windows-1252');
  assert.equal(sniffCharset(Buffer.from('h\u00e9llo', 'utf8'), 'text/html'), 'utf-8', 'undeclared but valid UTF-8');
  assert.equal(decodeText(latin1Page(''), 'text/html; charset=x-nonsense').includes('caf\u00e9'), true);
  // Bytes that are invalid in the declared encoding decode to U+FFFD instead of throwing.
  assert.equal(decodeText(Buffer.from([0x61, 0xff, 0x62]), 'text/plain; charset=utf-8'), 'a\ufffdb');
});

test("the meta prescan skips comments and other tags' attributes, as the HTML standard's prescan does", () => {
  // A UTF-8 page keeping its old declaration in a comment: read as Latin-1, "Café" was "CafÃ©".
  const commented = Buffer.from(`<!DOCTYPE html><html><head>
<!-- old: <meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"> -->
<meta charset="utf-8"><title>Café Müller</title></head><body><a href="/café">café</a></body></html>`);
  assert.equal(sniffCharset(commented, 'text/html'), 'utf-8');
  assert.match(decodeText(commented, 'text/html'), /<title>Café Müller<\/title>/);
  // A comment ends at the first "-->", which may share the dashes of its "<!--".
  assert.equal(sniffCharset(latin1Page('<!--><meta charset="koi8-r">'), 'text/html'), 'koi8-r');
  assert.equal(sniffCharset(latin1Page('<!---><meta charset="koi8-r">'), 'text/html'), 'koi8-r');
  assert.equal(sniffCharset(latin1Page('<!-- <meta charset="koi8-r"> --!><meta charset="iso-8859-2"> -->'), 'text/html'), 'windows-1252');
  // Markup declarations and processing instructions are skipped to their first '>'; another tag's
  // attribute values are values, whatever they quote, in end tags too.
  assert.equal(sniffCharset(latin1Page(`<!x <meta charset="koi8-r"><meta charset="iso-8859-2">`), 'text/html'), 'iso-8859-2');
  assert.equal(sniffCharset(latin1Page(`<?x <meta charset="koi8-r"><meta charset="iso-8859-2">`), 'text/html'), 'iso-8859-2');
  assert.equal(sniffCharset(latin1Page(`<div title='<meta charset="koi8-r">'><meta charset="iso-8859-2">`), 'text/html'), 'iso-8859-2');
  assert.equal(sniffCharset(latin1Page(`</p title='<meta charset="koi8-r">'><meta charset="iso-8859-2">`), 'text/html'), 'iso-8859-2');
  // A comment never closed runs to the end: nothing after its "<!--" is a declaration.
  assert.equal(sniffCharset(latin1Page('<!-- unclosed <meta charset="koi8-r">'), 'text/html'), 'windows-1252');
});

test('only <meta charset> and <meta http-equiv="content-type" content> declare a charset; the first known one wins', () => {
  // A description mentioning "charset=" declares nothing: the page was read as KOI8-R.
  const described = Buffer.from('<meta name="description" content="How to set charset=koi8-r in Apache"><meta charset="utf-8"><title>café</title>');
  assert.equal(sniffCharset(described, 'text/html'), 'utf-8');
  assert.equal(sniffCharset(latin1Page('<meta content="text/html; charset=koi8-r">'), 'text/html'), 'windows-1252', 'content without http-equiv');
  assert.equal(sniffCharset(latin1Page('<meta http-equiv="refresh" content="0; charset=koi8-r">'), 'text/html'), 'windows-1252');
  assert.equal(sniffCharset(latin1Page(`<meta content="text/html; charset='koi8-r'" http-equiv=CONTENT-TYPE>`), 'text/html'), 'koi8-r', 'any order, any case');
  assert.equal(sniffCharset(latin1Page('<META/CHARSET = "ISO-8859-2"/>'), 'text/html'), 'iso-8859-2');
  // <meta charset> wins over a content charset in the same tag; the first of a repeated attribute counts.
  assert.equal(sniffCharset(latin1Page('<meta http-equiv="content-type" content="text/html; charset=koi8-r" charset="iso-8859-2">'), 'text/html'), 'iso-8859-2');
  assert.equal(sniffCharset(latin1Page('<meta charset="iso-8859-2" charset="koi8-r"><meta charset="koi8-u">'), 'text/html'), 'iso-8859-2');
  // <metadata> is another element, not a meta.
  assert.equal(sniffCharset(latin1Page('<metadata charset="koi8-r"><meta charset="iso-8859-2">'), 'text/html'), 'iso-8859-2');
});

test("windows-1252's bytes 0x80–0x9F are read as browsers read them, whatever Node's one-call decoder does with them", () => {
  // Node 20.18.3 and later decode them as Latin-1's C1 controls (nodejs/node#60888).
  const bytes = Buffer.from([0x80, 0x20, 0x92, 0x93, 0x94, 0x20, 0x9c, 0x8a, 0x9f, 0x20, 0x81, 0x8d, 0xe9]);
  const expected = '€ ’“” œŠŸ \u0081\u008Dé';
  assert.equal(decodeText(bytes, 'text/html; charset=windows-1252'), expected);
  assert.equal(decodeText(bytes, 'text/html; charset=ISO-8859-1'), expected, 'iso-8859-1 is windows-1252');
  assert.equal(decodeText(bytes, null), expected, 'undeclared, not UTF-8');
  // What a streaming decoder, which Node gets right, makes of the same bytes.
  const streaming = new TextDecoder('windows-1252');
  assert.equal(streaming.decode(bytes, { stream: true }) + streaming.decode(), expected);
  // Other single-byte encodings were never wrong, and are left as decoded.
  assert.equal(decodeText(Buffer.from([0x80, 0xc0]), 'text/html; charset=windows-1251'), 'ЂА');
});
