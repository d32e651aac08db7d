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
  assert.equal(
    refused,
    'Knowledge base “tides” is in use, so it was not deleted: 7 crawl definitions name it: “ICD 1” (#1), “ICD 2” (#2), “ICD 3” (#3), “ICD 4” (#4), “ICD 5” (#5), and 2 more; ' +
      'and the crawl “Night crawl” (#9), which may still run, uses it. To delete it, first choose another knowledge base in those crawl definitions and let that crawl end',
  );
  // "that may still run" once read as said of the definition.
  assert.equal(
    deleteRefusal('tides', [{ id: 7, name: 'X' }], []),
    'Knowledge base “tides” is in use, so it was not deleted: the crawl definition “X” (#7) names it. To delete it, first choose another knowledge base in that crawl definition',
  );
  assert.equal(
    deleteRefusal('tides', [], [{ id: 9, name: 'A' }, { id: 10, name: 'B' }]),
    'Knowledge base “tides” is in use, so it was not deleted: 2 crawls that may still run use it: “A” (#9), “B” (#10). To delete it, first let those crawls end',
  );
  assert.equal(renameRefusal('tides', 'gauges', false), null);
  assert.match(renameRefusal('tides', 'gauges', true)!, /“gauges” already exists/);
  assert.match(renameRefusal('default', 'gauges', false)!, /cannot be renamed/);
});
