import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PREVIEW_BYTES, payloadFileName, textPreview } from '../../../app/lib/server/record-view';

test('textual payloads are previewed as UTF-8 up to a limit; others are not', () => {
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
  assert.equal(textPreview('text/plain', new Uint8Array([0xff, 0x41])).preview, '\uFFFDA', 'invalid bytes replaced, not thrown');
});

test('a payload download is named after the URL, never with a path', () => {
  assert.equal(payloadFileName('http://a.example/img/logo.png?x=1'), 'logo.png');
  assert.equal(payloadFileName('http://a.example/'), 'a.example');
  assert.equal(payloadFileName('http://a.example/dir/%2e%2e%2Fetc%2Fpasswd'), '.._etc_passwd');
  assert.equal(payloadFileName('http://a.example/%E0%A4%A'), 'payload', 'malformed escapes');
  assert.equal(payloadFileName('not a url'), 'payload');
});
