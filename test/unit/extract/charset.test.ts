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
