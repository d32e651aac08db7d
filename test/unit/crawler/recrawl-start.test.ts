import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recrawlStart, type PageCapture } from '../../../worker/crawler/recrawl-answer';

const html = (status: number, payloadDigest: string, depth = 1): PageCapture => ({ status, mime: 'text/html', depth, payloadDigest });

test('a page\'s recrawls start from its latest answer whatever its status, as a round compares it', () => {
  // Latest first.
  assert.deepEqual(recrawlStart([html(200, 'sha1:B'), html(200, 'sha1:A')]), { depth: 1, answer: 'sha1:B' });
  assert.deepEqual(recrawlStart([html(404, 'sha1:GONE', 2), html(200, 'sha1:A')]), { depth: 2, answer: 'status:404' }, 'gone since its visit: compared by the status');
  assert.deepEqual(recrawlStart([html(301, 'sha1:MOVED'), html(200, 'sha1:A')]), { depth: 1, answer: 'status:301' });
  assert.deepEqual(recrawlStart([html(304, 'sha1:A'), html(200, 'sha1:A')]), { depth: 1, answer: 'sha1:A' }, 'a 304 answered the payload its record points to');
});

test('a transient failure is no answer about the page: its recrawls start from the answer before', () => {
  for (const status of [503, 429, 408]) assert.deepEqual(recrawlStart([html(status, 'sha1:ERR'), html(200, 'sha1:A')]), { depth: 1, answer: 'sha1:A' }, String(status));
});

test('only a page once captured as HTML (a 2xx HTML answer) is recrawled', () => {
  assert.equal(recrawlStart([html(404, 'sha1:GONE')]), null);
  assert.equal(recrawlStart([{ status: 200, mime: 'image/png', depth: 1, payloadDigest: 'sha1:P' }]), null);
  assert.deepEqual(recrawlStart([{ status: 200, mime: 'application/pdf', depth: 1, payloadDigest: 'sha1:PDF' }, html(200, 'sha1:A')]), { depth: 1, answer: 'sha1:PDF' }, 'an HTML page that became a PDF starts from the PDF');
});
