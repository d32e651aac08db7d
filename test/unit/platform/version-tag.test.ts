import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ifMatchHolds, isNotModified, nextVersion, parseIfMatch, versionTag } from '../../../app/lib/version-tag';

const stored = new Date('2026-11-25T08:10:06.845Z');

test('versionTag quotes the update time as JSON writes it, from a Date or from that text', () => {
  assert.equal(versionTag(stored), '"2026-11-25T08:10:06.845Z"');
  assert.equal(versionTag('2026-11-25T08:10:06.845Z'), '"2026-11-25T08:10:06.845Z"');
  assert.equal(versionTag('2026-11-25T08:10:06.845+00:00'), '"2026-11-25T08:10:06.845Z"');
});

test('parseIfMatch: none is no condition; *, lists, weak tags, bare tokens and an empty header', () => {
  assert.equal(parseIfMatch(null), null);
  assert.equal(parseIfMatch(undefined), null);
  assert.deepEqual(parseIfMatch('*'), { kind: 'any' });
  assert.deepEqual(parseIfMatch('"a", "b,c" ,"d"'), { kind: 'tags', tags: ['"a"', '"b,c"', '"d"'] });
  assert.deepEqual(parseIfMatch('W/"a", "b"'), { kind: 'tags', tags: ['"b"'] });
  assert.deepEqual(parseIfMatch('2026-11-25T08:10:06.845Z'), { kind: 'tags', tags: ['"2026-11-25T08:10:06.845Z"'] });
  assert.deepEqual(parseIfMatch(''), { kind: 'tags', tags: [] });
  assert.deepEqual(parseIfMatch('  '), { kind: 'tags', tags: [] });
});

test('ifMatchHolds: the stored version’s own tag (strongly), any version for *, never when nothing is stored', () => {
  const holds = (header: string, current: Date | null) => ifMatchHolds(parseIfMatch(header)!, current);
  assert.equal(holds(versionTag(stored), stored), true);
  assert.equal(holds(`"x", ${versionTag(stored)}`, stored), true);
  assert.equal(holds('2026-11-25T08:10:06.845Z', stored), true, 'a bare updatedAt');
  assert.equal(holds(versionTag(new Date(stored.getTime() - 1)), stored), false, 'a millisecond older');
  assert.equal(holds(`W/${versionTag(stored)}`, stored), false, 'weak tags never match');
  assert.equal(holds('"2026-11-25T08:10:06.845+00:00"', stored), false, 'tags are compared as written');
  assert.equal(holds('', stored), false);
  assert.equal(holds('*', stored), true);
  assert.equal(holds('*', null), false);
  assert.equal(holds(versionTag(stored), null), false);
});

test('nextVersion is now, or a millisecond on when the clock has not moved past the stored version', () => {
  const later = new Date(stored.getTime() + 5000);
  assert.equal(nextVersion(stored, later).getTime(), later.getTime());
  assert.equal(nextVersion(stored, stored).getTime(), stored.getTime() + 1);
  assert.equal(nextVersion(stored, new Date(stored.getTime() - 60_000)).getTime(), stored.getTime() + 1, 'a clock set back');
});

test('isNotModified: If-None-Match compares weakly, takes * and lists, and needs the whole tag', () => {
  assert.equal(isNotModified(null, '"v1"'), false);
  assert.equal(isNotModified('"v1"', '"v1"'), true);
  assert.equal(isNotModified('W/"v1"', '"v1"'), true);
  assert.equal(isNotModified('"v0", W/"v1"', '"v1"'), true);
  assert.equal(isNotModified('"v0",W/"v1"', '"v1"'), true);
  assert.equal(isNotModified('*', '"v1"'), true);
  assert.equal(isNotModified('"v1-x"', '"v1"'), false);
  assert.equal(isNotModified('"v0"', '"v1"'), false);
  assert.equal(isNotModified('', '"v1"'), false);
});
