import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resumeNotice } from '../../../worker/cli/main';
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
