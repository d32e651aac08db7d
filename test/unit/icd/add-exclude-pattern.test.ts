import { test } from 'node:test';
import assert from 'node:assert/strict';
import { excludePatternSchema, patternsRemoved, withExcludePattern, withoutExcludePattern } from '../../../worker/icd/add-exclude-pattern';
import { ICD_LIMITS } from '../../../worker/icd/schema';

const message = (value: string) => {
  const r = excludePatternSchema.safeParse(value);
  return r.success ? null : r.error.issues.map((i) => i.message);
};

test('a live exclude pattern is checked as the ICD checks its exclude patterns, and may not be empty', () => {
  assert.equal(message('/calendar\\?day='), null);
  assert.deepEqual(message('('), ['Not a valid regular expression: unterminated group']);
  assert.match(message('(a+)+$')?.[0] ?? '', /exponential time/);
  assert.deepEqual(message(''), ['Enter a pattern']);
  // Accepted before, then failed at its first URL: V8 refuses so large a pattern when it first runs it.
  assert.deepEqual(message('x'.repeat(1_000_000)), ['A pattern has at most 5,000 characters (this one has 1,000,000)']);
  assert.match(message('(.*)(.*)(.*)\\1#')?.[0] ?? '', /^A backreference/);
});

test("a pattern is added to the crawl's ICD copy, the rest kept as stored", () => {
  const stored = JSON.stringify({ name: 'x', seeds: ['http://a.test/'], scope: { maxDepth: 3, exclude: ['\\.pdf$'] }, politeness: { minDelayMs: 5 } });
  const next = withExcludePattern(stored, '/calendar');
  assert.ok('definition' in next);
  assert.deepEqual(JSON.parse(next.definition), { name: 'x', seeds: ['http://a.test/'], scope: { maxDepth: 3, exclude: ['\\.pdf$', '/calendar'] }, politeness: { minDelayMs: 5 } });
  // An ICD without a scope gets one.
  const bare = withExcludePattern(JSON.stringify({ name: 'y', seeds: ['http://a.test/'] }), 'x');
  assert.ok('definition' in bare);
  assert.deepEqual(JSON.parse(bare.definition).scope, { exclude: ['x'] });
});

test('a pattern the crawl excludes already, or one past the ICD limit, is refused with the reason', () => {
  const stored = JSON.stringify({ name: 'x', seeds: ['http://a.test/'], scope: { exclude: ['\\.pdf$'] } });
  assert.deepEqual(withExcludePattern(stored, '\\.pdf$'), { error: 'The crawl excludes this pattern already' });
  const full = JSON.stringify({ name: 'x', seeds: ['http://a.test/'], scope: { exclude: Array.from({ length: ICD_LIMITS.patterns }, (_, k) => `/p${k}/`) } });
  assert.deepEqual(withExcludePattern(full, '/more/'), { error: `At most ${ICD_LIMITS.patterns} exclude patterns` });
});

test("a pattern is taken out of the crawl's ICD copy, the rest kept as stored; one it does not exclude is refused", () => {
  const stored = JSON.stringify({ name: 'x', seeds: ['http://a.test/'], scope: { maxDepth: 3, exclude: ['\\.pdf$', '/calendar', '/tag/'] }, politeness: { minDelayMs: 5 } });
  const next = withoutExcludePattern(stored, '/calendar');
  assert.ok('definition' in next);
  assert.deepEqual(JSON.parse(next.definition), { name: 'x', seeds: ['http://a.test/'], scope: { maxDepth: 3, exclude: ['\\.pdf$', '/tag/'] }, politeness: { minDelayMs: 5 } });
  assert.deepEqual(withoutExcludePattern(stored, '/other'), { error: 'The crawl does not exclude this pattern' });
  assert.deepEqual(withoutExcludePattern(JSON.stringify({ name: 'y', seeds: ['http://a.test/'] }), 'x'), { error: 'The crawl does not exclude this pattern' }, 'an ICD without a scope excludes nothing');
  // Taken out and added again: the same list as before.
  const without = withoutExcludePattern(stored, '/tag/');
  assert.ok('definition' in without);
  const back = withExcludePattern(without.definition, '/tag/');
  assert.ok('definition' in back);
  assert.deepEqual(JSON.parse(back.definition).scope.exclude, ['\\.pdf$', '/calendar', '/tag/']);
});

// Read through the schema, a stored pattern it now refuses (one from before the star-height check,
// or today's) made the removal throw: DELETE /api/crawls/:id/exclusions answered 500.
test("a pattern stored before today's checks on patterns can still be taken out of the crawl's ICD copy", () => {
  const stored = JSON.stringify({ name: 'x', seeds: ['http://a.test/'], scope: { exclude: ['\\.pdf$', '(a+)+$', 'x'.repeat(60_000)] } });
  const next = withoutExcludePattern(stored, '(a+)+$');
  assert.ok('definition' in next);
  assert.deepEqual(JSON.parse(next.definition).scope.exclude, ['\\.pdf$', 'x'.repeat(60_000)]);
});

test("the patterns an engine applies that the crawl's ICD copy no longer has are those removed", () => {
  assert.deepEqual(patternsRemoved(['\\.pdf$', '/calendar', '/tag/'], ['\\.pdf$', '/tag/']), ['/calendar']);
  assert.deepEqual(patternsRemoved(['/a', '/b'], ['/a', '/b', '/c']), [], 'one added and not yet applied is no removal');
  assert.deepEqual(patternsRemoved(['/a', '/b'], []), ['/a', '/b']);
  assert.deepEqual(patternsRemoved([], []), []);
});
