import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { MAX_PATTERN_LENGTH, patternProblem, runsOnLinearEngine } from '../../../worker/process/regexp-safety';

// V8 compiles a pattern with the `l` flag only when its linear-time engine can run it: the engine
// itself says which patterns can move there. The flag is this test process's own.
setFlagsFromString('--enable-experimental-regexp-engine');
const linearInV8 = (source: string) => {
  try {
    new RegExp(source, 'l');
    return true;
  } catch {
    return false;
  }
};

test('the patterns said to run on V8\'s linear-time engine are those V8 runs there', () => {
  const patterns = [
    '/login', '\\.(jpe?g|png|gif)$', '^https?://[^/]+/(en|fr)/', 'calendar\\?.*month=', '[a-f0-9]{8}', '\\bfoo\\B', '[^/]+?', 'a??', '(?:a|b)*',
    'a{16}', 'a{17}', 'a{0,16}', 'a{0,17}', 'a{15,}', 'a{16,}', '(?:a{4}){4}', '(?:a{4}){5}', '(?:a*){16}', '(?:a+){8}', '(?:a+){9}',
    '(?:a?){16}', '(?:a?){17}', '(?:a{1,2}){8}', '(?:a{1,2}){9}', '(?:(?:x{2}){2}){4}', '(?:(?:x{2}){2}){5}', '(?:x{2}|y{9}){2}',
    '(?=a)b', '(?!a)b', '(?<=a)b', '(?<!a)b', '(a)\\1', '\\1(a)', '(a)(b)\\2', '(?<n>a)\\k<n>', '(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10',
    // Without as many groups, \N is an octal or identity escape; without named groups, \k is a k.
    '\\1', '\\8', '(a)\\2', '(a)\\10', '\\0', '\\k<n>', '\\k',
    // A `{` that starts no count, and escapes whose digits or braces are characters of their own.
    'x{a}', 'x{17', '[a{17}]', 'a\\{17}', '\\u{17}', '\\x{17}', '\\cA{17}', '[\\]]{17}', 'a{0}', '(?:a{100}){0}',
  ];
  for (const source of patterns) assert.equal(runsOnLinearEngine(source), linearInV8(source), source);
  // Case-insensitive patterns run there only when they can be rewritten without the i flag.
  assert.equal(runsOnLinearEngine('/Tag/.*', { caseInsensitive: true }), true);
  assert.equal(runsOnLinearEngine('/café/.*', { caseInsensitive: true }), false);
  assert.equal(linearInV8('/café/.*'), true, 'the same pattern, as written');
});

test('a backreference is refused, whatever its shape: it keeps the pattern off the linear-time engine', () => {
  // (.*)(.*)(.*)\1# held the cockpit 68 s on a 600-character URL, the star-height check passing it.
  for (const source of ['(.*)(.*)(.*)\\1#', '(a)\\1', '\\1(a)', '(?<n>x+)-\\k<n>', '(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10']) {
    assert.match(patternProblem(source) ?? '', /^A backreference \(\\1, \\k<name>\) is not allowed/, source);
  }
  for (const escape of ['\\1', '(a)\\2', '\\k<n>', '\\0']) assert.equal(patternProblem(escape), null, `${escape} is no backreference`);
});

test('a lookaround is taken when backtracking through the pattern stays linear, and refused, saying why, when it does not', () => {
  // safe-regex2 could not read a lookbehind and called it exponential.
  for (const source of ['(?<=a)b', '(?<!www\\.)example\\.org', '^(?!.*\\.pdf$)', '^https?://[^/]+/(?!admin/)', '^(?=.*foo)(?=.*bar)', '^(?:(?!foo).)*bar', '/p/(?=\\d)']) {
    assert.equal(patternProblem(source), null, source);
  }
  for (const source of ['(?=x).*.*#', '(?!.*\\.pdf$)', '(?<=a)[a-z]*y', '(?:(?!foo).)*bar']) {
    assert.match(patternProblem(source) ?? '', /^This pattern can take too long on long URLs: a lookaround .* keeps it off JavaScript's linear-time engine, .*anchor it at the start with \^/, source);
  }
  assert.match(patternProblem('(?=x)(a|a)+$') ?? '', /^This pattern can take exponential time on some URLs: a lookaround .*repeats an alternation/);
  // The repetition checks reach inside a lookaround: the knowledge-base signal that held the cockpit 20 s.
  assert.match(patternProblem('(?=(a+)+#)') ?? '', /exponential time .*a repetition inside a repetition/);
});

test('a count over 16 keeps a pattern off the linear-time engine: taken while it backtracks little, refused past that', () => {
  for (const source of ['[?&]sid=[0-9a-f]{32}', '/[a-z]{2,20}/[0-9]{1,20}/', 'x{17}']) assert.equal(patternProblem(source), null, source);
  assert.match(patternProblem('[?&]sid=[0-9a-f]{32,}&') ?? '', /a count over 16 \(\{32,\}\) keeps it off .*use \*, \+ or counts up to 16/);
  assert.match(patternProblem('[0-9a-f]{32,}$') ?? '', /a count over 16 \(\{32,\}\) keeps it off/);
  assert.match(patternProblem('[a-z]{1,100}[a-z]{1,100}[a-z]{1,100}x') ?? '', /multiply into more than a thousand ways/);
  assert.match(patternProblem('(a|a){0,30}$') ?? '', /exponential time/);
});

test('a repetition the pattern ends with is tried once where it is reached: a session id of 32 or more hex digits is taken', () => {
  // Nothing follows it, so its first count ends the match; one matched one way fails for good.
  for (const source of ['[?&]sid=[0-9a-f]{32,}', '[?&]sid=([0-9a-f]{32,})', 'jsessionid=[0-9A-F]{32,}|PHPSESSID=[a-z0-9]{26,}', '[a-z]{1000,}']) {
    assert.equal(patternProblem(source), null, source);
  }
  assert.equal(patternProblem('[?&]sid=[0-9a-f]{32,}', { caseInsensitive: true }), null);
  // Only a part matched one way, without a lookaround: a choice or a lookahead in each repeat still counts.
  assert.match(patternProblem('x(?:ab|a){20,}') ?? '', /repeats an alternation/);
  assert.match(patternProblem('.*foo.{20,}') ?? '', /grows faster than the text's length/);
  // The one try reads up to the count before it fails: a count of thousands is still too long.
  assert.match(patternProblem('[a-z]{3000,}') ?? '', /a count over 16 \(\{3000,\}\)/);
});

test('a case-insensitive pattern is judged as it runs: without the i flag when it can be rewritten so, else with it', () => {
  assert.equal(patternProblem('/Forum/.*/.*\\.php', { caseInsensitive: true }), null);
  assert.match(patternProblem('/café/.*/.*\\.php', { caseInsensitive: true }) ?? '', /a character outside ASCII .* keeps it off/);
  assert.equal(patternProblem('/café/.*/.*\\.php'), null, 'the same pattern, matched as written');
  assert.match(patternProblem('(?=x).*.*#', { caseInsensitive: true, subject: 'header value' }) ?? '', /on long header values/);
});

test('a pattern over the length limit is refused before V8 sees it: one of 60,000 characters compiled, and failed at its first URL', () => {
  assert.equal(patternProblem('x'.repeat(MAX_PATTERN_LENGTH)), null);
  assert.equal(patternProblem('x'.repeat(60_000)), 'A pattern has at most 5,000 characters (this one has 60,000)');
  assert.equal(patternProblem('x'.repeat(1_000_000), { caseInsensitive: true }), 'A pattern has at most 5,000 characters (this one has 1,000,000)');
  // Within the length, groups nested 2,500 deep overflowed the analysis's stack.
  assert.equal(patternProblem('('.repeat(2_500) + ')'.repeat(2_500)), 'Groups nest at most 100 deep in a pattern');
  assert.equal(patternProblem('(?:'.repeat(100) + 'x' + ')'.repeat(100)), null);
});

test('what does not compile says why, with the hints for Heritrix flags and globs', () => {
  assert.equal(patternProblem('('), 'Not a valid regular expression: unterminated group');
  assert.equal(patternProblem('(?i)pdf'), 'Not a valid regular expression: invalid group: JavaScript has no inline flags such as (?i): write both cases, as [Pp][Dd][Ff]');
  assert.equal(patternProblem('é(', { caseInsensitive: true }), 'Not a valid regular expression: unterminated group');
});
