import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyResponse, extractFromResponse, extractManifestLinks, type ResponseInput } from '../../../worker/extract';
import { MAX_MANIFEST_CHARS } from '../../../worker/extract/manifest';

const MANIFEST = 'http://example.org/app/site.webmanifest';

test('a web app manifest: its icons, screenshots and shortcut icons are requisites, resolved against its URL', () => {
  const json = JSON.stringify({
    name: 'Harbour',
    start_url: '/',
    icons: [{ src: 'icons/192.png', sizes: '192x192' }, { src: '/icons/512.png' }, { src: 'icons/192.png' }, { sizes: '1x1' }, { src: 42 }, null, 'x.png'],
    screenshots: [{ src: 'shots/wide.jpg', form_factor: 'wide' }],
    shortcuts: [{ name: 'Tides', url: '/tides', icons: [{ src: ' tide.png ' }] }, { name: 'No icons' }, 7],
  });
  assert.deepEqual(extractManifestLinks(json, MANIFEST).map((l) => [l.url, l.kind, l.source]), [
    ['http://example.org/app/icons/192.png', 'requisite', 'manifest@icons'],
    ['http://example.org/icons/512.png', 'requisite', 'manifest@icons'],
    ['http://example.org/app/shots/wide.jpg', 'requisite', 'manifest@screenshots'],
    ['http://example.org/app/tide.png', 'requisite', 'manifest@shortcuts'],
  ]);
});

test('a broken, odd or oversized manifest yields nothing and never throws', () => {
  for (const text of ['', '{', 'null', '[]', '"icons"', '{"icons": {"src": "a.png"}}', '{"icons": "a.png"}', '{"shortcuts": {"icons": []}}']) assert.deepEqual(extractManifestLinks(text, MANIFEST), [], text);
  const big = `{"icons": [{"src": "a.png"}], "pad": "${' '.repeat(MAX_MANIFEST_CHARS)}"}`;
  assert.deepEqual(extractManifestLinks(big, MANIFEST), []);
});

test('a manifest is known by its type, or by its usual names under a generic type', () => {
  const body = Buffer.from('{"icons": [{"src": "i.png"}]}');
  assert.equal(classifyResponse(MANIFEST, 'application/manifest+json', body), 'manifest');
  assert.equal(classifyResponse('http://example.org/anything', 'application/manifest+json', body), 'manifest');
  assert.equal(classifyResponse(MANIFEST, 'application/json', body), 'manifest');
  assert.equal(classifyResponse('http://example.org/manifest.json', 'application/json', body), 'manifest');
  assert.equal(classifyResponse(MANIFEST, '', body), 'manifest');
  assert.equal(classifyResponse('http://example.org/api/data.json', 'application/json', body), 'other', 'other JSON is not read');
  assert.equal(classifyResponse(MANIFEST, 'text/html', body), 'html', 'the type decides first');
  const input: ResponseInput = { url: MANIFEST, status: 200, headers: { 'content-type': 'application/manifest+json' }, body, maxDecodedBytes: 1_000_000 };
  assert.deepEqual(extractFromResponse(input).links.map((l) => l.url), ['http://example.org/app/i.png']);
});
