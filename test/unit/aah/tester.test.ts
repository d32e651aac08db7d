import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { testKnowledgeBase } from '../../../worker/aah/tester';

const SHIPPED = readFileSync('knowledge-base/default.xml', 'utf8');

// Before, a page the AAH did not analyse (too large, or over its time budget) came back as "no
// application" only, and the archivist testing a rule could not tell why nothing was selected.
test('the tester says when a page was not analysed, as a crawl would skip it', () => {
  const large = testKnowledgeBase(SHIPPED, { url: 'http://forum.example/viewtopic.php?t=1', html: `<html><body>${'<p>post</p>'.repeat(460_000)}</body></html>` });
  assert.equal(large.skipped, 'page-too-large');
  assert.equal(large.application, null);
  const small = testKnowledgeBase(SHIPPED, { url: 'http://forum.example/viewtopic.php?t=1', html: '<html><body><p>post</p></body></html>' });
  assert.equal(small.skipped, undefined);
});
