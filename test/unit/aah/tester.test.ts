import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { crawlAnalyses, testKnowledgeBase } from '../../../worker/aah/tester';

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

// Found by an exploratory session: captures a crawl never runs the AAH on (octet-stream, JSON, a 301
// without a body) were analysed by the tester, which answered "none detected".
test('a captured response a crawl does not analyse (no 2xx answer read as HTML) is reported not analysed', () => {
  const url = 'http://forum.example/viewtopic.php?t=1';
  const html = '<html><body><p>post</p></body></html>';
  const of = (status: number, contentType: string | null, body = html) => testKnowledgeBase(SHIPPED, { url, html: body, response: { status, contentType } }).skipped ?? null;
  assert.deepEqual([of(200, 'text/html; charset=utf-8'), of(200, 'application/xhtml+xml'), of(200, null)], [null, null, null]);
  assert.deepEqual([of(200, 'application/octet-stream'), of(200, 'application/json', '{"a":1}'), of(301, null, ''), of(404, 'text/html'), of(200, null, '%PDF-1.4')], ['not-html', 'not-html', 'not-html', 'not-html', 'not-html']);
  assert.equal(crawlAnalyses(url, { status: 206, contentType: 'TEXT/HTML' }, Buffer.from(html)), true);
  // Pasted HTML (no response) is analysed as before.
  assert.equal(testKnowledgeBase(SHIPPED, { url, html }).skipped, undefined);
});
