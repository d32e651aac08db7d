import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { checkManifest, type WaczEntry } from '../../../worker/export/verify-wacz';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const entry = (content: string, stored = true): WaczEntry => ({ bytes: Buffer.byteLength(content), sha256: sha(content), stored });

/** A package of a WARC file, an index and pages, its manifest and digest as they should be. */
function pkg() {
  const files: Record<string, string> = { 'archive/a.warc.gz': 'warc bytes', 'indexes/index.cdx': 'index', 'pages/pages.jsonl': '{}' };
  const entries = new Map(Object.entries(files).map(([p, c]) => [p, entry(c, p !== 'pages/pages.jsonl')]));
  const resources = Object.entries(files).map(([path, c]) => ({ name: path.split('/').pop(), path, hash: `sha256:${sha(c)}`, bytes: Buffer.byteLength(c) }));
  const manifest = JSON.stringify({ profile: 'data-package', resources });
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
  ]);
  const deflated = new Map(entries).set('archive/a.warc.gz', entry('warc bytes', false));
  assert.match(checkManifest(deflated, manifest, digest).join('\n'), /^archive\/a\.warc\.gz: deflated/);
  const otherManifest = JSON.stringify({ resources });
  assert.deepEqual(checkManifest(entries, otherManifest, digest), ["datapackage-digest.json does not hold datapackage.json's sha256"]);
});

test('a package without a manifest, with a broken one, or without WARC files says so', () => {
  const { entries } = pkg();
  assert.deepEqual(checkManifest(entries, undefined, undefined), ['no datapackage.json']);
  assert.match(checkManifest(entries, '{"resources": [', undefined)[0]!, /^datapackage\.json is not JSON/);
  assert.deepEqual(checkManifest(entries, '{}', undefined), ['datapackage.json has no resources list']);
  assert.deepEqual(checkManifest(new Map(), '{"resources": []}', undefined), ['no WARC file under archive/']);
});
