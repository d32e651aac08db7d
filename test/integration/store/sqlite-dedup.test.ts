import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { SqliteDedupLookup } from '../../../worker/crawler/sqlite-dedup';
import { CaptureStore } from '../../../worker/store/capture-store';
import { insertCrawl } from '../../support/crawl-rows';
import { icdSchema } from '../../../worker/icd/schema';

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

// Before, the Capture table's answer (after a restart, or once memory had let the digest go) could
// be a capture whose body was cut short: a whole payload of the same bytes became a revisit of a
// record marked WARC-Truncated, which the WARC writer never refers to while it remembers.
test('the Capture table gives only whole bodies as what a revisit refers to', () => {
  const db = openSqlite(join(mkdtempSync(join(tmpdir(), 'tm-dedup-')), 'd.db'));
  applyMigrations(db, 'prisma/migrations');
  const crawlId = insertCrawl(db, icdSchema.parse({ name: 'Dedup', seeds: ['http://a.test/'] }));
  const store = new CaptureStore(db, crawlId);
  const capture = (n: number, truncated: 'disconnect' | 'time' | 'length' | null) => store.addCapture({
    url: `http://a.test/${n}`, status: 200, mime: 'text/html', size: 10, payloadDigest: `sha1:${n}`, truncated, recordType: 'response',
    warcFile: 'a.warc.gz', warcOffset: n * 100, warcLength: 100, warcRecordId: `<urn:uuid:${n}>`, depth: 0, score: null, scoreBreakdown: null,
    similarity: null, title: null, fetchedAt: new Date('2026-11-23T12:00:00Z'), durationMs: 0,
  });
  capture(1, null);
  capture(2, 'disconnect');
  capture(3, 'time');
  capture(4, 'length');
  const lookup = new SqliteDedupLookup(db, crawlId);
  assert.equal(lookup.get('sha1:1')?.recordId, '<urn:uuid:1>');
  for (const n of [2, 3, 4]) assert.equal(lookup.get(`sha1:${n}`), undefined, `capture ${n}, cut`);
  db.close();
});
