import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateSite } from '../../../bench/coherence/site';
import { simulateRecrawls } from '../../../bench/coherence/incremental-sim';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

test('the recrawl simulation judges as the engine does: pages that only stamp themselves cost downloads when judged by the digest alone', () => {
  const pages = generateSite(200, 1);
  const run = (judge: 'digest' | 'fingerprint', stampingShare: number) => simulateRecrawls(pages, 'adaptive', 5, 1, 2, { judge, stampingShare });
  // Without them, the digest and the fingerprint judge every answer alike.
  assert.deepEqual(run('fingerprint', 0), run('digest', 0));
  const byDigest = run('digest', 0.3);
  const byFingerprint = run('fingerprint', 0.3);
  assert.ok(sum(byFingerprint.downloads) < sum(byDigest.downloads), `${sum(byFingerprint.downloads)} downloads judged by fingerprints, ${sum(byDigest.downloads)} by digests`);
  // Judged by fingerprints, the stamps are invisible: the rounds of the site without them.
  assert.deepEqual(byFingerprint, run('fingerprint', 0));
});
