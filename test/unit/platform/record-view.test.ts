import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PREVIEW_BYTES, payloadFileName, textPreview } from '../../../app/lib/server/record-view';

test('textual payloads are previewed up to a limit; others are not', () => {
  const page = new TextEncoder().encode('<p>Écluse</p>');
  assert.deepEqual(textPreview('text/html; charset=utf-8', page), { preview: '<p>Écluse</p>', truncated: false });
  assert.equal(textPreview('application/rss+xml', page).preview, '<p>Écluse</p>');
  assert.equal(textPreview('image/svg+xml', page).preview, '<p>Écluse</p>');
  assert.deepEqual(textPreview('image/png', page), { preview: null, truncated: false });
  assert.deepEqual(textPreview(null, page), { preview: null, truncated: false });
  const long = new Uint8Array(PREVIEW_BYTES + 10).fill(0x61);
  const cut = textPreview('text/plain', long);
  assert.equal(cut.preview!.length, PREVIEW_BYTES);
  assert.equal(cut.truncated, true);
  assert.equal(textPreview('text/plain; charset=utf-8', new Uint8Array([0xff, 0x41])).preview, '\uFFFDA', 'invalid bytes replaced, not thrown');
});

test('a preview is decoded in the charset the page declares, as the crawler read it', () => {
  const latin1 = Uint8Array.from([0x3c, 0x70, 0x3e, 0xc9, 0x63, 0x6c, 0x75, 0x73, 0x65]); // "<p>Écluse" in windows-1252
  assert.equal(textPreview('text/html; charset=iso-8859-1', latin1).preview, '<p>Écluse');
  assert.equal(textPreview('text/html', latin1).preview, '<p>Écluse', 'undeclared and not UTF-8: windows-1252');
  assert.equal(textPreview('text/html; charset=iso-8859-1', Uint8Array.from([0x93, 0x80, 0x9c, 0x94])).preview, '“€œ”', "windows-1252's 0x80–0x9F as browsers read them");
  const meta = new Uint8Array([...new TextEncoder().encode('<meta charset="windows-1251"><p>'), 0xcc, 0xee, 0xf1, 0xea, 0xe2, 0xe0]);
  assert.equal(textPreview('text/html', meta).preview, '<meta charset="windows-1251"><p>Москва');
  const utf16 = Uint8Array.from([0xff, 0xfe, 0x41, 0x00, 0xe9, 0x00]);
  assert.equal(textPreview('text/plain', utf16).preview, 'Aé', 'a UTF-16 BOM wins and is not shown');
  // A UTF-8 page cut inside a character at the limit is still read as UTF-8.
  const cutInside = new Uint8Array([...new Uint8Array(PREVIEW_BYTES - 1).fill(0x61), ...new TextEncoder().encode('é')]);
  const shown = textPreview('text/plain', cutInside).preview!;
  assert.equal(shown.length, PREVIEW_BYTES, 'the last byte is half of é: one replacement character');
  assert.equal(shown.at(-1), '\uFFFD');
});

test('a payload download is named after the URL, never with a path', () => {
  assert.equal(payloadFileName('http://a.example/img/logo.png?x=1'), 'logo.png');
  assert.equal(payloadFileName('http://a.example/'), 'a.example');
  assert.equal(payloadFileName('http://a.example/dir/%2e%2e%2Fetc%2Fpasswd'), '.._etc_passwd');
  assert.equal(payloadFileName('http://a.example/%E0%A4%A'), '%E0%A4%A', 'malformed escapes: kept as written');
  assert.equal(payloadFileName('http://a.example/files/100%-report.pdf'), '100%-report.pdf');
  assert.equal(payloadFileName('http://a.example/caf%C3%A9%zz%E9%C3%A9%F0%9F%8C%8A.txt'), 'café%zz%E9é🌊.txt', 'what decodes is decoded');
  assert.equal(payloadFileName('not a url'), 'payload');
});
