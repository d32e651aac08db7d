import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ICD_LIMITS, icdSchema, parseIcd } from '../../../worker/icd/schema';
import { demoIcd } from '../../../worker/store/seed';

const base = { name: 'Limits', seeds: ['https://a.example.org/'] };
const issuesOf = (input: unknown) => {
  const parsed = icdSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

/** Each bounded list: where it is in an ICD, an item, and its bound. */
const lists: { path: string; item: (i: number) => unknown; max: number; message: string }[] = [
  { path: 'seeds', item: (i) => `https://h${i}.example.org/`, max: ICD_LIMITS.seeds, message: 'At most 10,000 seed URLs' },
  { path: 'scope.allowedHosts', item: (i) => `h${i}.example.org`, max: ICD_LIMITS.hosts, message: 'At most 10,000 allowed hosts' },
  { path: 'scope.surtPrefixes', item: (i) => `http://(org,example,h${i},)/`, max: ICD_LIMITS.hosts, message: 'At most 10,000 SURT prefixes' },
  { path: 'scope.include', item: (i) => `/p${i}/`, max: ICD_LIMITS.patterns, message: 'At most 200 include patterns' },
  { path: 'scope.exclude', item: (i) => `/p${i}/`, max: ICD_LIMITS.patterns, message: 'At most 200 exclude patterns' },
  { path: 'politeness.ignoreRobotsFor', item: (i) => `https://h${i}.example.org/`, max: ICD_LIMITS.seeds, message: 'At most 10,000 prefixes that ignore robots.txt' },
  { path: 'focus.keywords', item: (i) => ({ term: `k${i}` }), max: ICD_LIMITS.keywords, message: 'At most 1,000 keywords' },
  { path: 'focus.entities', item: (i) => ({ name: `e${i}`, type: 'person' }), max: ICD_LIMITS.entities, message: 'At most 1,000 entities' },
  { path: 'focus.topics', item: (i) => `topic ${i}`, max: ICD_LIMITS.topics, message: 'At most 1,000 topics' },
  { path: 'focus.urlPatterns', item: (i) => ({ pattern: `/p${i}/`, weight: 0.5 }), max: ICD_LIMITS.patterns, message: 'At most 200 URL patterns' },
  { path: 'focus.blacklist', item: (i) => `spam${i}.example`, max: ICD_LIMITS.blacklist, message: 'At most 10,000 blacklist entries' },
  { path: 'coherence.feeds', item: (i) => `https://h${i}.example.org/feed`, max: ICD_LIMITS.feeds, message: 'At most 1,000 feeds' },
];

/** `base` with `value` set at a dotted path. */
function withValue(path: string, value: unknown): Record<string, unknown> {
  const icd: Record<string, unknown> = structuredClone(base);
  const keys = path.split('.');
  let at = icd;
  for (const key of keys.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
  at[keys.at(-1)!] = value;
  return icd;
}

test('every list of an ICD takes its bound and refuses one more, naming the field', () => {
  for (const { path, item, max, message } of lists) {
    const full = Array.from({ length: max }, (_, i) => item(i));
    assert.deepEqual(issuesOf(withValue(path, full)), [], `${path} at ${max}`);
    assert.deepEqual(issuesOf(withValue(path, [...full, item(max)])), [{ path, message }], `${path} past ${max}`);
  }
});

test('an entity takes 100 aliases and topicTerms 5,000 terms; one more is refused', () => {
  const aliases = Array.from({ length: ICD_LIMITS.aliases + 1 }, (_, i) => `alias ${i}`);
  assert.deepEqual(issuesOf(withValue('focus.entities', [{ name: 'E', type: 'event', aliases: aliases.slice(1) }])), []);
  assert.deepEqual(issuesOf(withValue('focus.entities', [{ name: 'E', type: 'event', aliases }])), [{ path: 'focus.entities.0.aliases', message: 'At most 100 aliases per entity' }]);
  const terms = Object.fromEntries(Array.from({ length: ICD_LIMITS.topicTerms + 1 }, (_, i) => [`term${i}`, 1 / (i + 1)]));
  const { term0: _dropped, ...fewer } = terms;
  assert.equal(Object.keys(fewer).length, ICD_LIMITS.topicTerms);
  assert.deepEqual(issuesOf(withValue('focus.topicTerms', fewer)), []);
  assert.deepEqual(issuesOf(withValue('focus.topicTerms', terms)), [{ path: 'focus.topicTerms', message: 'At most 5,000 topic terms' }]);
});

test("the reviewer's 19 MB ICD (500,000 seeds, 200,000 topic terms) is refused", () => {
  const icd = {
    name: 'Huge',
    seeds: Array.from({ length: 500_000 }, (_, i) => `https://h${i}.example.org/`),
    focus: { topicTerms: Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`term${i}`, 0.5])) },
  };
  assert.deepEqual(issuesOf(icd), [
    { path: 'seeds', message: 'At most 10,000 seed URLs' },
    { path: 'focus.topicTerms', message: 'At most 5,000 topic terms' },
  ]);
});

test('the ICDs the repository ships and benchmarks with are far within the bounds', () => {
  const demo = demoIcd('http://127.0.0.1:3001');
  assert.deepEqual(parseIcd(demo), demo);
  // bench/politeness.ts: one seed per host, 200 hosts by default.
  const politeness = { name: 'bench politeness', seeds: Array.from({ length: 200 }, (_, i) => `http://127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}:8080/`) };
  assert.equal(parseIcd(politeness).seeds.length, 200);
});

test('scope.extraHops takes 0 to 3 and refuses 4, a fraction and a negative count, naming the field', () => {
  for (const n of [0, 1, 2, 3]) assert.deepEqual(issuesOf(withValue('scope.extraHops', n)), [], `${n}`);
  for (const n of [4, 1.5, -1]) assert.deepEqual(issuesOf(withValue('scope.extraHops', n)).map((i) => i.path), ['scope.extraHops'], `${n}`);
});
