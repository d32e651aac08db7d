import { test } from 'node:test';
import assert from 'node:assert/strict';
import { icdSchema, knowledgeBaseNameSchema } from '../../../worker/icd/schema';

const base = { name: 'Boards', seeds: ['https://forum.example.org/'] };
const issuesOf = (input: unknown) => {
  const parsed = icdSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

test('aah.knowledgeBase defaults to "default": without an aah section, with one that predates the field, and with the AAH off', () => {
  assert.deepEqual(icdSchema.parse(base).aah, { enabled: true, knowledgeBase: 'default' });
  // An ICD stored before the field existed.
  assert.deepEqual(icdSchema.parse({ ...base, aah: { enabled: true } }).aah, { enabled: true, knowledgeBase: 'default' });
  assert.deepEqual(icdSchema.parse({ ...base, aah: { enabled: false } }).aah, { enabled: false, knowledgeBase: 'default' });
  assert.deepEqual(icdSchema.parse({ ...base, aah: { knowledgeBase: 'forums-2026.v2' } }).aah, { enabled: true, knowledgeBase: 'forums-2026.v2' });
});

test('aah.knowledgeBase takes the names PUT /api/knowledge-bases/:name stores, and refuses others with the same message', () => {
  for (const name of ['default', 'a', 'Forums_2026', 'news.v2', 'x-y', 'k'.repeat(64)]) {
    assert.deepEqual(issuesOf({ ...base, aah: { knowledgeBase: name } }), [], name);
    assert.equal(knowledgeBaseNameSchema.parse(name), name);
  }
  for (const name of ['', 'k'.repeat(65), 'two words', 'a/b', '../default', 'café', ' default', 'default\n']) {
    assert.deepEqual(issuesOf({ ...base, aah: { knowledgeBase: name } }), [{ path: 'aah.knowledgeBase', message: 'Name: letters, digits, . _ - (at most 64)' }], JSON.stringify(name));
  }
  assert.deepEqual(issuesOf({ ...base, aah: { knowledgeBase: 7 } }).map((i) => i.path), ['aah.knowledgeBase']);
});

// A knowledge base named . or .. was stored, but its URL (/api/knowledge-bases/..) resolves to
// another path: it could never be read, changed nor deleted.
test('a knowledge-base name of dots only is refused, saying why; dots among other characters are fine', () => {
  for (const name of ['.', '..', '...']) {
    assert.deepEqual(issuesOf({ ...base, aah: { knowledgeBase: name } }), [{ path: 'aah.knowledgeBase', message: 'Name: not only dots (. and .. in a URL mean this folder and the one above)' }], name);
  }
  for (const name of ['.hidden', 'v..2', 'a.']) assert.equal(knowledgeBaseNameSchema.parse(name), name);
});
