import { test } from 'node:test';
import assert from 'node:assert/strict';
import { certificateAsServed, summaryAsRead } from '../../../worker/coherence/legacy-summary';
import { buildCertificate, summarise } from '../../../worker/coherence';

const byStatus = { unchanged: 0, 'content-changed': 0, 'links-changed': 0, missing: 0 };
/** What a run over no page stored before stop 35. */
const OLD_EMPTY = { pages: 0, byStatus, coherence: 1, blur: 0, referenceTime: '2026-11-20T10:00:00.000Z' };

test('an old summary of a run over no page reads null coherence and blur, with the reason, as a new one says', () => {
  const now = summarise([], Date.parse(OLD_EMPTY.referenceTime));
  assert.deepEqual(summaryAsRead(OLD_EMPTY), now);
});

test('summaries of runs over pages, and new empty ones, are returned as they are', () => {
  const some = { pages: 2, byStatus: { ...byStatus, unchanged: 2 }, coherence: 1, blur: 0, referenceTime: OLD_EMPTY.referenceTime };
  assert.equal(summaryAsRead(some), some);
  const empty = summarise([], 0);
  assert.equal(summaryAsRead(empty), empty);
});

test('an old certificate of a run over no page is served with that summary; any other text byte for byte', () => {
  const old = { format: 'tidemark-coherence-certificate/1', crawl: { id: 3, name: 'Harbour' }, referenceTime: OLD_EMPTY.referenceTime, generatedAt: OLD_EMPTY.referenceTime, summary: OLD_EMPTY, unchanged: [], notCertified: [] };
  const served = JSON.parse(certificateAsServed(JSON.stringify(old, null, 2) + '\n'));
  assert.deepEqual(served, { ...old, summary: summaryAsRead(OLD_EMPTY) });
  const current = JSON.stringify(buildCertificate({ id: 3, name: 'Harbour' }, [], 0, 0), null, 2) + '\n';
  assert.equal(certificateAsServed(current), current);
  for (const text of ['not json', '{"summary":null}', '[]', 'null']) assert.equal(certificateAsServed(text), text);
});
