import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conflictResponse, saveVersioned, type VersionedRow } from '../../../app/lib/server/versioned-save';
import { parseIfMatch, versionTag } from '../../../app/lib/version-tag';

const t0 = new Date('2026-11-25T08:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

/**
 * A stored row in memory that writes as the SQL does (only while the version is still `current`);
 * `beforeWrite` runs between a save's read and its write, as another request could.
 */
function memoryRow(version: Date | null, content = 'theirs') {
  const row = {
    version,
    content,
    writes: 0,
    beforeWrite: () => {},
    /** The stored text of the version does not compare equal to the version read (another format). */
    neverEqual: false,
    as(content: string): VersionedRow {
      return {
        version: async () => row.version,
        write: async (next, current) => {
          row.beforeWrite();
          if (row.version === null) return false;
          if (current && (row.neverEqual || current.getTime() !== row.version.getTime())) return false;
          row.version = next;
          row.content = content;
          row.writes += 1;
          return true;
        },
      };
    },
  };
  return row;
}

test('a save built on the stored version is stored as a new version; one built on an older one is refused and stores nothing', async () => {
  const row = memoryRow(t0);
  const saved = await saveVersioned(row.as('A'), parseIfMatch(versionTag(t0)), () => at(1000));
  assert.deepEqual(saved, { kind: 'saved', version: at(1000) });
  const refused = await saveVersioned(row.as('B'), parseIfMatch(versionTag(t0)), () => at(2000));
  assert.deepEqual(refused, { kind: 'conflict', current: at(1000) });
  assert.equal(row.content, 'A');
  assert.equal(row.writes, 1);
});

test('without If-Match a save is stored whatever the version, as before', async () => {
  const row = memoryRow(t0);
  assert.deepEqual(await saveVersioned(row.as('A'), null, () => at(1000)), { kind: 'saved', version: at(1000) });
  assert.equal(row.content, 'A');
});

test('two saves within one millisecond still make two versions: the older tag no longer matches', async () => {
  const row = memoryRow(t0);
  await saveVersioned(row.as('A'), null, () => t0);
  assert.equal(row.version!.getTime(), t0.getTime() + 1);
  assert.equal((await saveVersioned(row.as('B'), parseIfMatch(versionTag(t0)), () => t0)).kind, 'conflict');
});

test('another save between the check and the write: with If-Match refused, without it written after that one', async () => {
  const row = memoryRow(t0);
  let other = true;
  row.beforeWrite = () => {
    if (!other) return;
    other = false;
    row.version = at(500);
    row.content = 'other';
  };
  assert.deepEqual(await saveVersioned(row.as('A'), parseIfMatch(versionTag(t0)), () => at(1000)), { kind: 'conflict', current: at(500) });
  assert.equal(row.content, 'other');

  other = true;
  assert.deepEqual(await saveVersioned(row.as('B'), null, () => at(2000)), { kind: 'saved', version: at(2000) });
  assert.equal(row.content, 'B');
  assert.deepEqual(await saveVersioned(row.as('C'), parseIfMatch('*'), () => at(3000)), { kind: 'saved', version: at(3000) }, '* holds for any version');
});

test('a row whose stored version never compares equal: without If-Match it is still written, with it refused', async () => {
  const row = memoryRow(t0);
  row.neverEqual = true;
  assert.deepEqual(await saveVersioned(row.as('A'), null, () => at(1000)), { kind: 'saved', version: at(1000) });
  assert.equal(row.content, 'A');
  assert.equal((await saveVersioned(row.as('B'), parseIfMatch(versionTag(at(1000))), () => at(2000))).kind, 'conflict');
  assert.equal(row.content, 'A');
});

test('no row: missing, with or without If-Match', async () => {
  assert.deepEqual(await saveVersioned(memoryRow(null).as('A'), null), { kind: 'missing' });
  assert.deepEqual(await saveVersioned(memoryRow(null).as('A'), parseIfMatch('*')), { kind: 'missing' });
});

test('the 412 says what changed when, that nothing was saved, and carries the stored version', async () => {
  const res = conflictResponse('crawl definition', new Date('2026-11-25T08:10:06.845Z'));
  assert.equal(res.status, 412);
  assert.equal(res.headers.get('etag'), '"2026-11-25T08:10:06.845Z"');
  const body = (await res.json()) as { error: string; updatedAt: string; etag: string };
  assert.match(body.error, /^This crawl definition was changed at 2026-11-25 08:10:06 UTC since you opened it, .*nothing was saved/);
  assert.equal(body.updatedAt, '2026-11-25T08:10:06.845Z');
  assert.equal(body.etag, '"2026-11-25T08:10:06.845Z"');
});
