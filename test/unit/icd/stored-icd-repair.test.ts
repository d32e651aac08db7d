/**
 * Repairing a crawl's stored ICD that today's rules refuse (an earlier version accepted it): only
 * the refused fields are replaced, the crawl keeping its seeds and every other setting.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusedFieldOf, refusedFields, repairStoredIcd, replacementLine, viewableIcd } from '../../../worker/icd/stored-icd-repair';
import { resumeRefusal } from '../../../worker/process/stored-icd-replacement';

/** As an earlier version stored it: a pattern with a repetition inside a repetition, a weight over 1,000. */
const stored = {
  name: 'Old harbour',
  seeds: ['http://a.test/', 'http://b.test/'],
  scope: { exclude: ['(a+)+$', '/login'], maxPages: 50 },
  politeness: { minDelayMs: 500 },
  focus: { moduleWeights: { text: 5000 } },
  // A field of an older version, which today's schema does not know.
  retired: true,
};

test('the field an issue is in is the section field, or the top-level field', () => {
  assert.equal(refusedFieldOf(['scope', 'exclude', 0]), 'scope.exclude');
  assert.equal(refusedFieldOf(['focus', 'keywords', 3, 'weight']), 'focus.keywords');
  assert.equal(refusedFieldOf(['seeds', 1]), 'seeds');
  assert.equal(refusedFieldOf(['politeness']), 'politeness');
  assert.equal(refusedFieldOf([]), '(root)');
});

test('the refused fields are listed with their stored values and why', () => {
  const refused = refusedFields(stored);
  assert.deepEqual(refused.map((r) => [r.field, r.value]), [['scope.exclude', ['(a+)+$', '/login']], ['focus.moduleWeights', { text: 5000 }]]);
  assert.match(refused[0]!.problems[0]!, /^scope\.exclude\.0: .*repetition inside a repetition/);
  assert.match(refused[1]!.problems[0]!, /^focus\.moduleWeights\.text: At most 1,000/);
  assert.deepEqual(refusedFields({ name: 'Fine', seeds: ['http://a.test/'] }), []);
});

test('corrected refused fields give the stored ICD with only them replaced, and what was replaced', () => {
  const repair = repairStoredIcd(stored, { 'scope.exclude': ['a+$', '/login'], 'focus.moduleWeights': { text: 5 } });
  assert.ok('repaired' in repair, JSON.stringify(repair));
  assert.deepEqual(repair.repaired.scope.exclude, ['a+$', '/login']);
  assert.equal(repair.repaired.focus.moduleWeights.text, 5);
  // Everything else as stored.
  assert.deepEqual(repair.repaired.seeds, stored.seeds);
  assert.equal(repair.repaired.name, 'Old harbour');
  assert.equal(repair.repaired.scope.maxPages, 50);
  assert.equal(repair.repaired.politeness.minDelayMs, 500);
  assert.equal(replacementLine(repair.replaced[0]!), 'scope.exclude ["(a+)+$","/login"] → ["a+$","/login"]');
  // The weights object as parsed: the defaults of the weights not written filled in.
  assert.equal((repair.replaced[1]!.after as { text: number }).text, 5);
  assert.deepEqual(repair.replaced[1]!.before, { text: 5000 });
  assert.equal(stored.scope.exclude[0], '(a+)+$', 'the stored definition is not changed');
});

test('a refused pattern may be dropped from its list', () => {
  const repair = repairStoredIcd(stored, { 'scope.exclude': ['/login'], 'focus.moduleWeights': {} });
  assert.ok('repaired' in repair, JSON.stringify(repair));
  assert.deepEqual(repair.repaired.scope.exclude, ['/login']);
});

test('a refused field left as it was stays refused, at its field', () => {
  const repair = repairStoredIcd(stored, { 'scope.exclude': ['/login'] });
  assert.ok('invalid' in repair, JSON.stringify(repair));
  assert.deepEqual(repair.invalid.map((i) => i.path.join('.')), ['focus.moduleWeights.text']);
  const still = repairStoredIcd(stored, { 'scope.exclude': ['(a+)+$'], 'focus.moduleWeights': {} });
  assert.ok('invalid' in still);
  assert.deepEqual(still.invalid.map((i) => i.path.join('.')), ['scope.exclude.0']);
});

test('only refused fields may be replaced: the crawl keeps its other settings and its seeds', () => {
  const other = repairStoredIcd(stored, { 'scope.exclude': [], 'focus.moduleWeights': {}, 'scope.maxDepth': 3, seeds: ['http://c.test/'] });
  assert.deepEqual(other, { refused: 'Only the settings this version refuses may be replaced (scope.exclude, focus.moduleWeights), not scope.maxDepth, seeds: a crawl keeps its other settings' });
  const fine = repairStoredIcd({ name: 'Fine', seeds: ['http://a.test/'] }, {});
  assert.ok('refused' in fine);
  assert.match(fine.refused, /nothing to correct/);
});

test('a refused seed may be corrected or dropped, the other seeds stay', () => {
  const withBadSeed = { name: 'Seeds', seeds: ['http://a.test/', 'ftp://old.test/'] };
  assert.deepEqual(refusedFields(withBadSeed).map((r) => r.field), ['seeds']);
  const corrected = repairStoredIcd(withBadSeed, { seeds: ['http://a.test/', 'http://old.test/'] });
  assert.ok('repaired' in corrected, JSON.stringify(corrected));
  assert.deepEqual(corrected.repaired.seeds, ['http://a.test/', 'http://old.test/']);
  const dropped = repairStoredIcd(withBadSeed, { seeds: ['http://a.test/'] });
  assert.ok('repaired' in dropped);
  const otherCrawl = repairStoredIcd(withBadSeed, { seeds: ['http://z.test/'] });
  assert.deepEqual(otherCrawl, { refused: 'A crawl keeps its seeds: only a refused seed may be corrected or dropped, and http://a.test/ would be dropped' });
});

test("the crawl's views read a refused definition with the refused fields at their defaults, a refused seed left out", () => {
  const viewed = viewableIcd({ ...stored, seeds: ['http://a.test/', 'not a url', 'http://b.test/'] });
  assert.ok(viewed);
  assert.deepEqual(viewed.seeds, ['http://a.test/', 'http://b.test/']);
  assert.deepEqual(viewed.scope.exclude, [], 'the refused list at its default, not judged by');
  assert.equal(viewed.scope.maxPages, 50, 'the accepted settings as stored');
  assert.equal(viewed.politeness.minDelayMs, 500);
  assert.deepEqual(viewed.focus.moduleWeights, viewableIcd({ name: 'x', seeds: ['http://a.test/'] })!.focus.moduleWeights);
  assert.equal(viewableIcd({ name: 'x', seeds: ['http://a.test/'], scope: { exclude: ['/a'] } })!.scope.exclude[0], '/a', 'an accepted one as it is');
  assert.equal(viewableIcd('not a definition'), null);
});

test('a plain resume of such a crawl is refused naming each refused field, its problems and where to correct them', () => {
  const refusal = resumeRefusal(refusedFields(stored), 7);
  assert.match(refusal!, /^This crawl's definition has settings this version of Tidemark refuses \(an earlier version accepted them\), so it cannot be resumed as it is\. Refused: scope\.exclude\.0: [^;]*repetition inside a repetition[^;]*; focus\.moduleWeights\.text: [^;]*\. Correct scope\.exclude, focus\.moduleWeights first, on the crawl's page \(Correct the refused settings, then Correct and resume\) or with POST \/api\/crawls\/7\/stored-icd\.$/);
  assert.equal(resumeRefusal(refusedFields({ name: 'New', seeds: ['http://a.test/'] }), 7), null, 'nothing refused: resumed');
});
