import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { verifyWacz } from '../../../worker/export/verify-wacz';
import { withTempDir } from '../../support/temp-dir';

// Found by an exploratory session: a package whose pages had no date, or one that is no date,
// passed `tidemark check`; WACZ 1.1.1 says each line of pages/pages.jsonl MUST have a url and an
// RFC 3339 ts.
test("a package's page list is read line by line, and each line without a url or an RFC 3339 ts is named", () => withTempDir('tm-wacz-pages-', async (dir) => {
  const files: Record<string, Buffer> = {
    'archive/a.warc': Buffer.from(''),
    'indexes/index.cdx': Buffer.from(''),
    'pages/pages.jsonl': Buffer.from([
      '{"format":"json-pages-1.0","id":"pages","title":"All Pages"}',
      '{"id":"p1","url":"http://a.example/","ts":"2026-11-24T10:00:00Z"}',
      '{"id":"p2","url":"http://a.example/b"}',
      '{"id":"p3","url":"http://a.example/c","ts":"yesterday"}',
      '',
    ].join('\n')),
  };
  const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
  const resources = Object.entries(files).map(([path, b]) => ({ name: path.split('/').pop(), path, hash: sha(b), bytes: b.length }));
  const zip = new ZipFile();
  for (const [path, b] of Object.entries(files)) zip.addBuffer(b, path, { compress: false });
  zip.addBuffer(Buffer.from(JSON.stringify({ profile: 'data-package', wacz_version: '1.1.1', resources })), 'datapackage.json');
  zip.end();
  const path = join(dir, 'p.wacz');
  await pipeline(zip.outputStream, createWriteStream(path));
  const { errors } = await verifyWacz(path);
  assert.deepEqual(errors.filter((e) => e.startsWith('pages/')), [
    'pages/pages.jsonl line 3: no ts',
    'pages/pages.jsonl line 4: ts "yesterday" is not an RFC 3339 date',
  ]);
}));
