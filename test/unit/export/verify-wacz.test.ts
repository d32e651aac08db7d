import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { checkManifest, type WaczEntry } from '../../../worker/export/verify-wacz';
import { checkPageLine } from '../../../worker/export/wacz-rules';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const entry = (content: string, stored = true): WaczEntry => ({ bytes: Buffer.byteLength(content), sha256: sha(content), stored });

/** A package of a WARC file, an index and pages, its manifest and digest as they should be. */
function pkg() {
  const files: Record<string, string> = { 'archive/a.warc.gz': 'warc bytes', 'indexes/index.cdx': 'index', 'pages/pages.jsonl': '{}' };
  const entries = new Map(Object.entries(files).map(([p, c]) => [p, entry(c, p !== 'pages/pages.jsonl')]));
  const resources = Object.entries(files).map(([path, c]) => ({ name: path.split('/').pop(), path, hash: `sha256:${sha(c)}`, bytes: Buffer.byteLength(c) }));
  const manifest = JSON.stringify({ profile: 'data-package', wacz_version: '1.1.1', resources });
  const digest = JSON.stringify({ path: 'datapackage.json', hash: `sha256:${sha(manifest)}` });
  entries.set('datapackage.json', entry(manifest, false));
  entries.set('datapackage-digest.json', entry(digest, false));
  return { entries, manifest, digest, resources };
}

test("a package whose files are what its manifest says passes, its pages deflated", () => {
  const { entries, manifest, digest } = pkg();
  assert.deepEqual(checkManifest(entries, manifest, digest), []);
  assert.deepEqual(checkManifest(entries, manifest, undefined), [], 'the digest file is optional');
});

test('each broken promise of the manifest is named with its file', () => {
  const { entries, manifest, digest, resources } = pkg();
  const changed = new Map(entries);
  changed.set('indexes/index.cdx', entry('index!'));
  changed.set('archive/b.warc.gz', entry('more'));
  changed.delete('pages/pages.jsonl');
  const errors = checkManifest(changed, manifest, digest);
  assert.deepEqual(errors, [
    'indexes/index.cdx: datapackage.json says 5 bytes, the file has 6',
    "indexes/index.cdx: sha256 differs from datapackage.json's",
    'pages/pages.jsonl: listed in datapackage.json, not in the package',
    'archive/b.warc.gz: not listed in datapackage.json',
    'no pages/pages.jsonl',
  ]);
  const deflated = new Map(entries).set('archive/a.warc.gz', entry('warc bytes', false));
  assert.match(checkManifest(deflated, manifest, digest).join('\n'), /^archive\/a\.warc\.gz: deflated/);
  const otherManifest = JSON.stringify({ profile: 'data-package', wacz_version: '1.1.1', title: 'another', resources });
  assert.deepEqual(checkManifest(entries, otherManifest, digest), ["datapackage-digest.json does not hold datapackage.json's sha256"]);
});

test('a package without a manifest, with a broken one, or without WARC files says so', () => {
  const { entries } = pkg();
  assert.deepEqual(checkManifest(entries, undefined, undefined), ['no datapackage.json']);
  assert.match(checkManifest(entries, '{"resources": [', undefined)[0]!, /^datapackage\.json is not JSON/);
  assert.deepEqual(checkManifest(entries, '{}', undefined), ['datapackage.json has no resources list']);
  assert.deepEqual(checkManifest(new Map(), '{"resources": []}', undefined).at(-1), 'no WARC file under archive/');
});

// Found by an exploratory session: `tidemark check` passed a package whose manifest had another
// profile and no wacz_version, with no index, a text file under archive/ and pages without a date,
// each a MUST of WACZ 1.1.1.
test('what WACZ 1.1.1 says a package MUST hold is checked: the profile, wacz_version, a page list, an index, only WARC files in archive/', () => {
  const { entries, resources } = pkg();
  const manifest = (extra: Record<string, unknown>) => JSON.stringify({ profile: 'data-package', wacz_version: '1.1.1', resources, ...extra });
  assert.deepEqual(checkManifest(entries, manifest({ profile: 'tabular-data-package' }), undefined), ['datapackage.json: profile is "tabular-data-package", not "data-package"']);
  assert.deepEqual(checkManifest(entries, manifest({ wacz_version: undefined }), undefined), ['datapackage.json has no wacz_version']);
  const bare = new Map([['archive/a.warc.gz', entries.get('archive/a.warc.gz')!], ['archive/notes.txt', entry('hi')]]);
  const listed = [resources[0], { name: 'notes.txt', path: 'archive/notes.txt', hash: `sha256:${sha('hi')}`, bytes: 2 }];
  assert.deepEqual(checkManifest(bare, JSON.stringify({ profile: 'data-package', wacz_version: '1.1.1', resources: listed }), undefined), [
    'no pages/pages.jsonl',
    'no index under indexes/',
    'archive/notes.txt: not a .warc or .warc.gz file, in archive/, which holds only WARC files',
  ]);
  const plain = new Map(entries).set('archive/a.warc', entry('warc'));
  assert.deepEqual(checkManifest(plain, manifest({ resources: [...resources, { name: 'a.warc', path: 'archive/a.warc', hash: `sha256:${sha('warc')}`, bytes: 4 }] }), undefined), [], 'an uncompressed .warc is a WARC file too');
});

test('a page line holds a url and an RFC 3339 ts; the format line and a last empty line pass', () => {
  assert.equal(checkPageLine('{"format":"json-pages-1.0","id":"pages","title":"All Pages"}'), null);
  assert.equal(checkPageLine('{"id":"p1","url":"http://a.example/","ts":"2026-11-24T10:00:00Z"}'), null);
  assert.equal(checkPageLine('{"url":"http://a.example/","ts":"2026-11-24T10:00:00.123+01:00"}'), null, 'a fraction and an offset');
  assert.equal(checkPageLine(''), null);
  assert.equal(checkPageLine('{"url":"http://a.example/"}'), 'no ts');
  assert.equal(checkPageLine('{"url":"http://a.example/","ts":"20261124100000"}'), 'ts "20261124100000" is not an RFC 3339 date');
  assert.equal(checkPageLine('{"ts":"2026-11-24T10:00:00Z"}'), 'no url');
  assert.equal(checkPageLine('["http://a.example/"]'), 'not a JSON object');
  assert.equal(checkPageLine('{"url":'), 'not JSON');
});
