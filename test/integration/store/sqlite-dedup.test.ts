import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { SqliteDedupLookup } from '../../../worker/crawler/sqlite-dedup';

const ref = (n: number) => ({ uri: `http://a.test/${n}`, date: '2026-11-23T12:00:00.000Z', recordId: `<urn:uuid:${n}>`, payloadDigest: `sha1:${n}` });

test('the digest lookup remembers the newest digests only; older ones are left to the Capture table', () => {
  const db = openSqlite(join(mkdtempSync(join(tmpdir(), 'tm-dedup-')), 'd.db'));
  applyMigrations(db, 'prisma/migrations');
  const lookup = new SqliteDedupLookup(db, 1, 3);
  for (let n = 1; n <= 5; n++) lookup.set(`sha1:${n}`, ref(n));
  // Nothing is committed in this database: only what memory holds can be found.
  assert.equal(lookup.get('sha1:1'), undefined);
  assert.equal(lookup.get('sha1:2'), undefined);
  assert.deepEqual([3, 4, 5].map((n) => lookup.get(`sha1:${n}`)?.uri), [3, 4, 5].map((n) => `http://a.test/${n}`));
  lookup.set('sha1:3', ref(33));
  assert.equal(lookup.get('sha1:3')?.uri, 'http://a.test/3', 'the first capture of a digest stays the one revisits refer to');
  db.close();
});

test('a capture not written after all is forgotten, unless its digest already refers to another', () => {
  const db = openSqlite(join(mkdtempSync(join(tmpdir(), 'tm-dedup-')), 'd.db'));
  applyMigrations(db, 'prisma/migrations');
  const lookup = new SqliteDedupLookup(db, 1);
  lookup.set('sha1:1', ref(1));
  lookup.forget('sha1:1', ref(2).recordId);
  assert.equal(lookup.get('sha1:1')?.uri, 'http://a.test/1', 'another record of the digest stays');
  lookup.forget('sha1:1', ref(1).recordId);
  assert.equal(lookup.get('sha1:1'), undefined);
  db.close();
});
