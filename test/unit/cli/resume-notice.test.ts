import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitAdvice } from '../../../worker/cli/main';
import { replacedNotice, resumeNotice, resumeOverrides, withOverrides } from '../../../worker/cli/resume-icd';
import { icdSchema } from '../../../worker/icd/schema';

const stored = icdSchema.parse({ name: 'Harbour', seeds: ['http://a.test/', 'http://b.test/'], scope: { maxPages: 5 }, politeness: { minDelayMs: 500 } });
const given = (fields: Record<string, unknown>) => icdSchema.parse({ name: 'Harbour', seeds: ['http://b.test/', 'http://a.test/'], politeness: { minDelayMs: 500 }, ...fields });

test('a resume given the same crawl says nothing: seeds in another order, flags left out or given', () => {
  assert.equal(resumeNotice('/out', stored, given({})), null);
  assert.equal(resumeNotice('/out', stored, given({ scope: { maxPages: 12 }, politeness: { minDelayMs: 500, concurrency: 3, enabled: false } })), null);
});

test('other seeds: the stored crawl resumes, and the seeds given are not used', () => {
  assert.match(resumeNotice('/out', stored, given({ seeds: ['http://c.test/'] }))!, /^tidemark: \/out holds a crawl of http:\/\/a\.test\/ http:\/\/b\.test\/; resuming it \(the seeds given now are not used/);
});

test('the same seeds with other settings (another ICD file): the stored ICD goes on, and the notice says so', () => {
  const notice = resumeNotice('/out', stored, given({ politeness: { minDelayMs: 2000 } }));
  assert.match(notice!, /holds a crawl of the same seeds with other settings; resuming it with its stored ICD/);
  assert.notEqual(resumeNotice('/out', stored, given({ name: 'Another name' })), null);
  assert.notEqual(resumeNotice('/out', stored, given({ focus: { enabled: true, keywords: [{ term: 'tide', weight: 1 }] } })), null);
});

// Found by an exploratory session: a crawl made before fdc2a0e (11-24) stored the default gzip level
// of the time, 3, and every resume by the same command said "other settings".
test('a default an earlier version stored, since changed, is no other setting; a level the person asks for is', () => {
  const old = icdSchema.parse({ name: 'Harbour', seeds: ['http://a.test/', 'http://b.test/'], scope: { maxPages: 5 }, politeness: { minDelayMs: 500 }, warc: { gzipLevel: 3 } });
  assert.equal(resumeNotice('/out', old, given({})), null);
  assert.match(resumeNotice('/out', old, given({ warc: { gzipLevel: 6 } }))!, /with other settings/);
  assert.equal(old.warc.gzipLevel, 3, 'the comparison changes nothing of the stored crawl: it keeps its level');
});

const storedRaw = { name: 'Harbour', seeds: ['http://a.test/', 'http://b.test/'], scope: { maxPages: 5, maxBytes: 1000 }, politeness: { minDelayMs: 500 } };
const noFlags = { scope: {}, politeness: {} };

test('a resume from the ICD file takes its limits as edited, and says which stored values it replaced', () => {
  const file = given({ name: 'Harbour', scope: { maxPages: 20, maxBytes: 100_000_000, maxDurationMinutes: 30 }, politeness: { minDelayMs: 500, concurrency: 4, enabled: false } });
  const before = withOverrides(storedRaw, noFlags);
  const resumed = withOverrides(storedRaw, resumeOverrides(file, true, before.seeds, noFlags));
  assert.deepEqual(
    [resumed.scope.maxPages, resumed.scope.maxBytes, resumed.scope.maxDurationMinutes, resumed.politeness.concurrency, resumed.politeness.enabled],
    [20, 100_000_000, 30, 4, false],
  );
  assert.equal(resumed.politeness.minDelayMs, 500);
  assert.equal(
    replacedNotice('/out', before, resumed),
    'tidemark: resuming the crawl in /out with scope.maxPages 5 → 20, scope.maxBytes 1000 → 100000000, scope.maxDurationMinutes 0 → 30, politeness.concurrency 16 → 4, politeness.enabled true → false (the stored value replaced by this run\'s)',
  );
  assert.equal(resumeNotice('/out', resumed, file), null, 'the limits are not "other settings"');
});

test('a resume from seeds alone takes only the flags: the defaults do not replace the stored limits', () => {
  const fromSeeds = given({ name: 'CLI crawl of http://a.test/' });
  const before = withOverrides(storedRaw, noFlags);
  const kept = withOverrides(storedRaw, resumeOverrides(fromSeeds, false, before.seeds, noFlags));
  assert.deepEqual([kept.scope.maxPages, kept.scope.maxBytes], [5, 1000]);
  assert.equal(replacedNotice('/out', before, kept), null);
  const flagged = withOverrides(storedRaw, resumeOverrides(fromSeeds, false, before.seeds, { scope: { maxPages: 12 }, politeness: {} }));
  assert.deepEqual([flagged.scope.maxPages, flagged.scope.maxBytes], [12, 1000]);
});

test('an ICD file of other seeds is another crawl: none of its limits are taken', () => {
  const other = given({ seeds: ['http://c.test/'], scope: { maxBytes: 0 } });
  const before = withOverrides(storedRaw, noFlags);
  assert.equal(withOverrides(storedRaw, resumeOverrides(other, true, before.seeds, noFlags)).scope.maxBytes, 1000);
});

test('the limit advice says what goes on: the same command for the time limit, a larger maxBytes in the file given for the size limit', () => {
  assert.match(limitAdvice('time-limit', undefined), /^run the same command again to go on/);
  assert.match(limitAdvice('size-limit', '/tmp/sz.json'), /^raise scope\.maxBytes in \/tmp\/sz\.json .*and run the same command again to go on$/);
  assert.match(limitAdvice('size-limit', undefined), /an ICD file of the same seeds and a larger scope\.maxBytes/);
  assert.doesNotMatch(limitAdvice('size-limit', undefined), /in the ICD and run it again/);
  assert.match(limitAdvice('page-limit', undefined), /^run the same command again with a larger --max-pages to go on/);
  assert.match(limitAdvice('page-limit', '/tmp/p.json'), /^raise scope\.maxPages in \/tmp\/p\.json \(or give a larger --max-pages\)/);
  // A --max-pages given sets the limit over the file's: the file's would change nothing.
  assert.match(limitAdvice('page-limit', '/tmp/p.json', true), /^run the same command again with a larger --max-pages/);
});

test('the same seeds in another order from --seed alone say nothing, though the name the CLI derives is of the first seed', () => {
  const fromSeeds = (seeds: string[]) => icdSchema.parse({ name: `CLI crawl of ${seeds[0]}`, seeds });
  assert.equal(resumeNotice('/out', fromSeeds(['http://a.test/', 'http://b.test/']), fromSeeds(['http://b.test/', 'http://a.test/'])), null);
  // A name given in an ICD file is still a setting.
  assert.notEqual(resumeNotice('/out', fromSeeds(['http://a.test/', 'http://b.test/']), icdSchema.parse({ name: 'Harbour', seeds: ['http://a.test/', 'http://b.test/'] })), null);
});
