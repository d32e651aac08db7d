import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blur, buildCertificate, coherence, summarise, type ClassifiedPage } from '../../../worker/coherence';

const DAY = 86_400_000;

test('blur: expected changes between each visit and the reference time, per page', () => {
  assert.equal(blur([], 0), 0);
  assert.equal(blur([{ rate: 2, visitedAt: 0 }, { rate: 1, visitedAt: 2 * DAY }], DAY), (2 + 1) / 2);
  assert.equal(blur([{ rate: 5, visitedAt: DAY }], DAY), 0, 'visited at the reference time');
  assert.equal(blur([{ rate: 2, visitedAt: 0 }, { rate: null, visitedAt: 0 }], DAY), 2, 'a page without a rate is left out');
  assert.equal(blur([{ rate: null, visitedAt: 0 }], DAY), 0);
});

test('coherence: share of pages proved unchanged', () => {
  assert.equal(coherence(['unchanged', 'unchanged', 'missing', 'links-changed']), 0.5);
  assert.equal(coherence([]), 1);
});

test('the certificate lists exactly the unchanged pages, sorted, with digests, times and evidence', () => {
  const evidence = { unchanged: 'payload-digest', missing: 'gone', 'content-changed': 'content', 'links-changed': 'out-links' };
  const p = (url: string, status: ClassifiedPage['status']): ClassifiedPage => ({
    url, status, evidence: evidence[status], payloadDigest: `sha1:${url.length}`, textDigest: 'td', visitedAt: 1000, revisitedAt: 5000, rate: 1,
  });
  const cert = buildCertificate({ id: 7, name: 'x' }, [p('http://x/b', 'unchanged'), p('http://x/c', 'missing'), p('http://x/a', 'unchanged'), p('http://x/d', 'content-changed')], 3000, 9000);
  assert.deepEqual(cert.unchanged.map((u) => u.url), ['http://x/a', 'http://x/b']);
  assert.deepEqual(cert.unchanged.map((u) => u.evidence), ['payload-digest', 'payload-digest']);
  assert.deepEqual(cert.notCertified, [{ url: 'http://x/c', status: 'missing', evidence: 'gone' }, { url: 'http://x/d', status: 'content-changed', evidence: 'content' }]);
  assert.equal(cert.unchanged[0]!.visitedAt, '1970-01-01T00:00:01.000Z');
  assert.equal(cert.referenceTime, '1970-01-01T00:00:03.000Z');
  assert.equal(cert.summary.coherence, 0.5);
  assert.deepEqual(cert.summary.byStatus, { unchanged: 2, 'content-changed': 1, 'links-changed': 0, missing: 1 });
  assert.deepEqual(summarise([], 0).byStatus, { unchanged: 0, 'content-changed': 0, 'links-changed': 0, missing: 0 });
});

// A run over no page was certified with coherence 1 and blur 0: a perfect capture of nothing.
test('a run over no page has no coherence and no blur in its summary and certificate, each saying why', () => {
  for (const summary of [summarise([], DAY), buildCertificate({ id: 1, name: 'x' }, [], DAY, 2 * DAY).summary]) {
    assert.equal(summary.pages, 0);
    assert.equal(summary.coherence, null);
    assert.equal(summary.blur, null);
    assert.deepEqual(summary.unmeasured, { coherence: 'no page was visited and revisited', blur: 'no page was visited and revisited' });
  }
  // Pages whose revisits robots.txt refused have a coherence (0) but no rate, so no blur.
  const refused = summarise([{ status: 'missing', rate: null, visitedAt: 0 }], DAY);
  assert.equal(refused.coherence, 0);
  assert.equal(refused.blur, null);
  assert.deepEqual(refused.unmeasured, { blur: 'no revisited page has a change rate (no revisit was made, or none got an answer about its page)' });
  // Measured metrics carry no reasons.
  const measured = summarise([{ status: 'unchanged', rate: 1, visitedAt: 0 }], DAY);
  assert.deepEqual([measured.coherence, measured.blur, measured.unmeasured], [1, 1, undefined]);
});
