import { test } from 'node:test';
import assert from 'node:assert/strict';
import { excludePatternSchema, withExcludePattern } from '../../../worker/icd/add-exclude-pattern';
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
