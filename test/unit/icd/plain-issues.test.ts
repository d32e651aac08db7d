import { test } from 'node:test';
import assert from 'node:assert/strict';
import { icdSchema } from '../../../worker/icd/schema';
import { plainIssueMessage } from '../../../worker/icd/plain-issues';
import { unknownKeys } from '../../../worker/icd/unknown-keys';

const messages = (input: unknown) => {
  const r = icdSchema.safeParse(input, { error: plainIssueMessage });
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

test("zod's default messages become words; a schema's own messages stay", () => {
  assert.deepEqual(
    messages({
      name: 'x', seeds: ['not a url'],
      scope: { maxDepth: 1.5, maxPages: -3, maxPagesPerHost: Number.NaN },
      politeness: { minDelayMs: -5 },
      focus: { keywords: [{ term: 'a', weight: 50 }], entities: [{ name: '', type: 'person' }], updateFunction: 'MEAN' },
    }),
    {
      'seeds.0': messages({ name: 'x', seeds: ['not a url'] })['seeds.0'],
      'scope.maxDepth': 'A whole number (no decimals)',
      'scope.maxPages': 'At least 1',
      'scope.maxPagesPerHost': 'Not a number: use digits, and a point for decimals',
      'politeness.minDelayMs': 'At least 0',
      'focus.keywords.0.weight': 'At most 10',
      'focus.entities.0.name': 'Required',
      'focus.updateFunction': 'One of: FIRST, LAST, MAX, AVG, SUM',
    },
  );
  assert.doesNotMatch(messages({ name: 'x', seeds: ['not a url'] })['seeds.0']!, /^Invalid input/, "the seed's own message");
});

test('unknown keys: every field parsing dropped, by path, in arrays too; known ones and records pass', () => {
  const input = { name: 'x', seeds: ['http://a.org/'], scope: { maxPage: 5, maxPages: 5 }, politness: {}, focus: { keywords: [{ term: 'a', wieght: 2 }], topicTerms: { anything: 1 } } };
  const parsed = icdSchema.parse(input);
  assert.deepEqual(unknownKeys(input, parsed), ['scope.maxPage', 'politness', 'focus.keywords.0.wieght']);
  const clean = { name: 'x', seeds: ['http://a.org/'], focus: { topicTerms: { lighthous: 1 } } };
  assert.deepEqual(unknownKeys(clean, icdSchema.parse(clean)), []);
});

test('a URL pattern that can take exponential time is refused; ordinary patterns pass', () => {
  const exclude = (pattern: string) => messages({ name: 'x', seeds: ['http://a.org/'], scope: { exclude: [pattern] } })['scope.exclude.0'];
  for (const slow of ['^http://127\\.0\\.0\\.1:3061/(a+)+$', '(.*)*x', '(\\w+\\s?)+$']) assert.match(exclude(slow) ?? '', /exponential time/, slow);
  for (const fine of ['/login', '\\?sessionid=', '^https?://[^/]+/(en|fr)/', '/p/\\d+$', '\\.(jpe?g|png|gif)$', 'calendar\\?.*month=']) assert.equal(exclude(fine), undefined, fine);
  const pattern = messages({ name: 'x', seeds: ['http://a.org/'], focus: { urlPatterns: [{ pattern: '(a*)*', weight: 1 }] } });
  assert.match(pattern['focus.urlPatterns.0.pattern'] ?? '', /exponential time/);
});

// Each was accepted (201) and then ran on the cockpit's or the crawl's thread: the backreference
// held the cockpit 68 s on a 600-character URL, the 60,000-character pattern failed every URL.
test('every URL pattern of an ICD is refused at its field when it cannot run, or can backtrack for long', () => {
  const issues = messages({
    name: 'x', seeds: ['http://a.org/'],
    scope: { exclude: ['(.*)(.*)(.*)\\1#', '(?<=a)b'], include: ['x'.repeat(60_000)] },
    focus: { urlPatterns: [{ pattern: '(?=x).*.*#', weight: 1 }, { pattern: '/Forum/', weight: 1 }], blacklist: ['spam.example', 're:(a)\\1', 're:(', 're:/ads/'] },
  });
  assert.deepEqual(Object.keys(issues), ['scope.include.0', 'scope.exclude.0', 'focus.urlPatterns.0.pattern', 'focus.blacklist.1', 'focus.blacklist.2']);
  assert.match(issues['scope.exclude.0']!, /^A backreference \(\\1, \\k<name>\) is not allowed/);
  assert.equal(issues['scope.include.0'], 'A pattern has at most 5,000 characters (this one has 60,000)');
  assert.match(issues['focus.urlPatterns.0.pattern']!, /^This pattern can take too long on long URLs: a lookaround/);
  assert.match(issues['focus.blacklist.1']!, /^A backreference .* \(the pattern after re:\)$/);
  assert.equal(issues['focus.blacklist.2'], 'Not a valid regular expression: unterminated group (the pattern after re:)');
});

// "a\r\nX-Evil: 1" was accepted; every request of the crawl then failed before it was sent, logged
// as robots.txt getting no answer, outcome invalid-url.
test('the user agent takes only what an HTTP header value may hold', () => {
  const userAgent = (value: string) => messages({ name: 'x', seeds: ['http://a.org/'], userAgent: value }).userAgent;
  for (const bad of ['a\r\nX-Evil: 1', 'a\nb', 'a\u0000b', 'a\u007fb', 'a\u0085b', 'a€b']) {
    assert.equal(userAgent(bad), 'Only characters an HTTP header may carry: printable ones (up to ÿ, U+00FF), spaces and tabs, no line breaks or other control characters', JSON.stringify(bad));
  }
  for (const good of ['Tidemark/0.1 (+https://archive.example.org/crawler; archive@example.org)', 'Bibliothèque/1.0', 'a\tb']) assert.equal(userAgent(good), undefined, good);
});

// Before: "Must be a object", and nothing about what was given instead (an ICD file's author who
// wrote keywords as strings had to guess).
test('a value of the wrong type: what it must be, with its article, and what it is', () => {
  assert.deepEqual(
    messages({ name: 'x', seeds: 'http://a.org/', scope: { includeRequisites: 'yes' }, focus: { keywords: ['lighthouse'], topics: [3] }, politeness: null }),
    {
      seeds: 'Must be a list, not text',
      'scope.includeRequisites': 'Must be a boolean (true or false), not text',
      'focus.keywords.0': 'Must be an object ({…}), not text',
      'focus.topics.0': 'Must be text, not a number',
      politeness: 'Must be an object ({…}), not null',
    },
  );
});
