import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deleteRefusal, knowledgeBaseNamedBy, renameRefusal, withKnowledgeBaseNamed } from '../../../worker/store/knowledge-base-names';

test('the knowledge base an ICD names: its aah.knowledgeBase, default without one, nothing when unreadable', () => {
  assert.equal(knowledgeBaseNamedBy('{"name":"a","aah":{"enabled":true,"knowledgeBase":"tides"}}'), 'tides');
  assert.equal(knowledgeBaseNamedBy('{"name":"a","aah":{"enabled":true}}'), 'default');
  assert.equal(knowledgeBaseNamedBy('{"name":"a"}'), 'default');
  assert.equal(knowledgeBaseNamedBy('{"aah":{"knowledgeBase":3}}'), null);
  assert.equal(knowledgeBaseNamedBy('not json'), null);
  assert.equal(knowledgeBaseNamedBy('null'), null);
});

test('renaming in an ICD changes only aah.knowledgeBase', () => {
  const before = { name: 'a', seeds: ['https://x.org/'], aah: { enabled: false, knowledgeBase: 'tides' }, focus: { enabled: true } };
  assert.deepEqual(JSON.parse(withKnowledgeBaseNamed(JSON.stringify(before), 'gauges')), { ...before, aah: { enabled: false, knowledgeBase: 'gauges' } });
});

test('refusals name what uses the knowledge base, and default is kept', () => {
  assert.equal(deleteRefusal('tides', [], []), null);
  assert.match(deleteRefusal('default', [], [])!, /cannot be deleted/);
  const icds = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, name: `ICD ${i + 1}` }));
  const refused = deleteRefusal('tides', icds, [{ id: 9, name: 'Night crawl' }])!;
  assert.match(refused, /in use by 7 crawl definitions: “ICD 1” \(#1\), .*“ICD 5” \(#5\), … and by 1 crawl: “Night crawl” \(#9\)/);
  assert.doesNotMatch(refused, /ICD 6/);
  assert.equal(renameRefusal('tides', 'gauges', false), null);
  assert.match(renameRefusal('tides', 'gauges', true)!, /“gauges” already exists/);
  assert.match(renameRefusal('default', 'gauges', false)!, /cannot be renamed/);
});
