import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fingerprintCapture, type PageFingerprint } from '../../../worker/coherence';
import { answerChanged, fingerprintKept, fingerprintOfAnswer, storedFingerprintWanted, type RoundAnswer } from '../../../worker/crawler/recrawl-answer';

const T0 = Date.UTC(2026, 11, 1, 10, 0, 0);
const ARTICLE = 'The harbour master keeps the tide tables for the estuary. Boats leave two hours before high water and come back on the ebb, and the pilots meet every morning at the lock gates to read the weather and the river gauges.';

function page(digest: string, text: string, links: string[] = ['http://x/a'], status = 200): RoundAnswer & { fingerprint: PageFingerprint } {
  const fingerprint = fingerprintCapture({ status, headers: {}, payloadDigest: digest, mainText: text, outLinks: links, fetchedAt: T0 });
  return { answer: digest, fingerprint };
}

test('a round judges two HTML answers as the classifier does: a new time or token is no change, new text or links are', () => {
  const before = page('sha1:A', `${ARTICLE} Page generated at 10:31:07.`);
  assert.equal(answerChanged(before, page('sha1:B', `${ARTICLE} Page generated at 10:32:41.`)), false, 'a clock time masked');
  assert.equal(answerChanged(before, page('sha1:C', `${ARTICLE} Page generated at 10:31:07.`)), false, 'another payload of the same text (a CSRF token, markup)');
  assert.equal(answerChanged(before, page('sha1:D', `${ARTICLE} Page generated at 10:31:07.`, ['http://x/a', 'http://x/new'])), true, 'a navigation link added');
  assert.equal(answerChanged(before, page('sha1:E', 'The lock gates are closed for repairs until the spring; boats moor at the outer pontoon and the ferry runs from the beach.')), true, 'new text');
  assert.equal(answerChanged(before, { answer: 'sha1:A', fingerprint: null }), false, 'the same payload');
});

test('without two fingerprints, a round judges by the answers: a status, another type, a page stored before', () => {
  const html = page('sha1:A', ARTICLE);
  assert.equal(answerChanged(html, { answer: 'status:404', fingerprint: null }), true, 'gone');
  assert.equal(answerChanged({ answer: 'status:404', fingerprint: null }, html), true, 'back');
  assert.equal(answerChanged({ answer: 'status:404', fingerprint: null }, { answer: 'status:404', fingerprint: null }), false, 'still gone');
  assert.equal(answerChanged({ answer: 'sha1:A', fingerprint: null }, page('sha1:B', ARTICLE)), true, 'none kept: the digests differ');
  assert.equal(answerChanged(html, { answer: 'sha1:PDF', fingerprint: null }), true, 'now another type, not read as HTML');
});

test('the fingerprint kept is that of the version last judged changed, so small changes add up', () => {
  const base = page('sha1:A', ARTICLE);
  const stamped = page('sha1:B', `${ARTICLE} 10:32:41`);
  assert.equal(fingerprintKept(base, stamped, false), base.fingerprint, 'unchanged: the one compared with stays');
  const other = page('sha1:C', 'A different page altogether, about the ferry timetable and its winter sailings to the islands.');
  assert.equal(fingerprintKept(base, other, true), other.fingerprint, 'changed: the new one');
  assert.equal(fingerprintKept({ answer: 'sha1:A', fingerprint: null }, stamped, false), stamped.fingerprint, 'none kept before (a first answer): the new one');
  assert.equal(fingerprintKept(base, { answer: 'status:301', fingerprint: null }, true), null, 'not an HTML page: none, the answers decide');
  // Each answer 0.95 alike to the one before: unchanged each time against the last, changed once far from the kept one.
  const words = ARTICLE.split(' ');
  const drifted = (n: number) => page(`sha1:D${n}`, [...words.slice(n), ...Array.from({ length: n }, (_, i) => `new${i}`)].join(' '));
  let kept: RoundAnswer = base;
  const verdicts: boolean[] = [];
  for (let n = 1; n <= 8; n++) {
    const now = drifted(n);
    const changed = answerChanged(kept, now);
    verdicts.push(changed);
    kept = { answer: now.answer, fingerprint: fingerprintKept(kept, now, changed) };
  }
  assert.equal(verdicts[0], false, 'one word of forty replaced: no change');
  assert.ok(verdicts.includes(true), `the drift counts once it is far enough: ${verdicts.join(' ')}`);
});

test('the first round judges by the fingerprint the crawl kept of the answer it starts from, if any', () => {
  const visit = page('sha1:V', ARTICLE).fingerprint;
  const revisit = page('sha1:R', `${ARTICLE} 10:40`).fingerprint;
  assert.equal(fingerprintOfAnswer('sha1:R', [revisit, visit]), revisit);
  assert.equal(fingerprintOfAnswer('sha1:V', [null, visit]), visit, 'not revisited yet');
  assert.equal(fingerprintOfAnswer('sha1:OTHER', [revisit, visit]), null, 'the recrawls start from another capture');
  assert.equal(fingerprintOfAnswer('status:404', [revisit, visit]), null);
  assert.equal(fingerprintOfAnswer(null, [visit]), null, 'no content known');
  const cut = { ...visit, cut: true as const };
  assert.equal(fingerprintOfAnswer('sha1:V', [cut]), null, 'a body cut off by a failed fetch');
});

test('a refetch reads the fingerprint of the last answer from its record only when it needs it to judge', () => {
  const none = { answer: 'sha1:A', fingerprint: null, bomb: false };
  const stamped = page('sha1:B', `${ARTICLE} 10:32:41`);
  assert.equal(storedFingerprintWanted(none, stamped), true, 'an HTML payload that differs, none kept: read');
  assert.equal(storedFingerprintWanted(none, { ...page('sha1:A', ARTICLE) }), false, 'the same payload: no read');
  assert.equal(storedFingerprintWanted({ ...page('sha1:A', ARTICLE), bomb: false }, stamped), false, 'one kept');
  assert.equal(storedFingerprintWanted(none, { answer: 'status:404', fingerprint: null }), false, 'gone now: the answers decide');
  assert.equal(storedFingerprintWanted(none, { answer: 'sha1:PDF', fingerprint: null }), false, 'another type now');
  assert.equal(storedFingerprintWanted({ ...none, bomb: true }, stamped), false, 'a decompression bomb, never read');
  assert.equal(storedFingerprintWanted({ answer: 'status:404', fingerprint: null, bomb: false }, stamped), false, 'back from a status');
  assert.equal(storedFingerprintWanted({ answer: '', fingerprint: null, bomb: false }, stamped), false, 'no answer known');
});
