import { test } from 'node:test';
import assert from 'node:assert/strict';
import { urlPatternMatcher } from '../../../worker/frontier/url-pattern-matcher';

test('the SQL function matches as the scope compiles patterns (no flags), 1 or 0', () => {
  const matches = urlPatternMatcher();
  assert.equal(matches('/calendar\\?day=\\d+$', 'http://a.test/calendar?day=12'), 1);
  assert.equal(matches('/calendar\\?day=\\d+$', 'http://a.test/calendar?day=12&x=1'), 0);
  assert.equal(matches('/Calendar', 'http://a.test/calendar'), 0, 'case matters, as in checkScope');
  assert.equal(matches(null, 'http://a.test/'), 0, 'NULL in SQL matches nothing');
  assert.equal(matches('x', null), 0);
  assert.throws(() => matches('(', 'http://a.test/'), SyntaxError);
});

test('patterns are kept compiled, a bounded number of them, and answers stay right past the bound', () => {
  const matches = urlPatternMatcher(2);
  for (let round = 0; round < 3; round++) {
    for (const [pattern, url, want] of [['^a', 'ab', 1], ['^b', 'ab', 0], ['b$', 'ab', 1], ['^a', 'ba', 0]] as const) {
      assert.equal(matches(pattern, url), want, `${pattern} ${url}`);
    }
  }
});
