import { test } from 'node:test';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import {
  classifyChange, findContentTimestamps, fingerprintCapture, shingleSketch, sketchJaccard, transientFailure, validatorsTrusted, type PageFingerprint,
} from '../../../worker/coherence';
import { normalizedWords, SHINGLE_WIDTH, SKETCH_SIZE } from '../../../worker/coherence/fingerprint';

const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);
const ARTICLE = 'The harbour master reported that the spring tide reached four metres on the north quay, flooding the fish market and the old customs house while the ferries waited offshore for the water to fall again before docking.';

function capture(text: string, links: string[], extra: { status?: number; headers?: Record<string, string>; digest?: string; at?: number } = {}): PageFingerprint {
  return fingerprintCapture({
    status: extra.status ?? 200,
    headers: extra.headers ?? {},
    payloadDigest: extra.digest ?? `sha1:${createHash('sha1').update(text + links.join()).digest('hex')}`,
    mainText: text,
    outLinks: links,
    fetchedAt: extra.at ?? T0,
  });
}

test('identical payload digests: unchanged, whatever else', () => {
  const a = capture(ARTICLE, ['http://x/a'], { digest: 'sha1:AAA' });
  const b = capture(ARTICLE, ['http://x/a'], { digest: 'sha1:AAA', at: T0 + 60_000 });
  const v = classifyChange(a, { kind: 'fetched', fingerprint: b });
  assert.equal(v.status, 'unchanged');
  assert.equal(v.evidence, 'payload-digest');
});

test('304 Not Modified to a conditional revisit: unchanged', () => {
  const a = capture(ARTICLE, [], { headers: { etag: '"v1"' } });
  assert.equal(classifyChange(a, { kind: 'not-modified', at: T0 + 1, conditional: true }).status, 'unchanged');
});

// Before, every 304 counted the page unchanged (evidence not-modified), though the revisit of a page
// whose validators are not trusted sends none: a server answering 304 to any GET got it certified.
test('304 Not Modified to a revisit that sent no validators: missing (unconditional-304), not unchanged', () => {
  const a = capture(ARTICLE, [], { headers: { etag: 'W/"weak"' } });
  const v = classifyChange(a, { kind: 'not-modified', at: T0 + 1, conditional: false });
  assert.deepEqual([v.status, v.evidence], ['missing', 'unconditional-304']);
});

test("a revisit whose body decodes past the cap (a bomb): content changed, unless its payload is the visit's", () => {
  const a = capture(ARTICLE, ['http://x/a'], { digest: 'sha1:AAA' });
  const bomb = classifyChange(a, { kind: 'undecodable', at: T0 + 60_000, payloadDigest: 'sha1:BBB' });
  assert.deepEqual([bomb.status, bomb.evidence, bomb.similarity, bomb.linksAdded, bomb.linksRemoved], ['content-changed', 'decompression-bomb', null, [], []]);
  const same = classifyChange(a, { kind: 'undecodable', at: T0 + 60_000, payloadDigest: 'sha1:AAA' });
  assert.deepEqual([same.status, same.evidence], ['unchanged', 'payload-digest']);
});

test('errors, 4xx, 5xx and redirects on revisit: missing', () => {
  const a = capture(ARTICLE, []);
  assert.equal(classifyChange(a, { kind: 'failed', at: T0, status: null, reason: 'connect-refused' }).status, 'missing');
  for (const status of [404, 410, 500, 301]) {
    assert.equal(classifyChange(a, { kind: 'fetched', fingerprint: capture('Not found', [], { status }) }).status, 'missing', String(status));
  }
});

test('a failed revisit: a definitive answer (4xx, redirect) is gone; no answer, 5xx, 429 or 408 is unreachable', () => {
  const a = capture(ARTICLE, []);
  const evidence = (status: number | null) => classifyChange(a, { kind: 'failed', at: T0, status, reason: status === null ? 'connect-refused' : `http-${status}` });
  for (const status of [null, 500, 503, 429, 408]) assert.deepEqual([evidence(status).status, evidence(status).evidence], ['missing', 'unreachable'], String(status));
  for (const status of [404, 410, 403, 301, 302]) assert.deepEqual([evidence(status).status, evidence(status).evidence], ['missing', 'gone'], String(status));
});

test('transientFailure: no answer, 1xx, 5xx, 429 and 408 say nothing of the page; 2xx, 3xx and other 4xx do', () => {
  for (const status of [null, 100, 408, 429, 500, 502, 503, 504, 599]) assert.equal(transientFailure(status), true, String(status));
  for (const status of [200, 204, 301, 304, 400, 401, 403, 404, 410, 451]) assert.equal(transientFailure(status), false, String(status));
});

test('a revisit robots.txt or an exclude pattern did not let be made: missing, with the reason as evidence', () => {
  const a = capture(ARTICLE, ['http://x/a']);
  for (const reason of ['robots-disallowed', 'robots-unavailable', 'exclude-match'] as const) {
    const v = classifyChange(a, { kind: 'excluded', at: T0, reason });
    assert.deepEqual([v.status, v.evidence, v.similarity], ['missing', reason, null]);
  }
});

test('only a changed date or clock time: unchanged by the main-text digest', () => {
  const a = capture(`Updated 2026-11-23 10:15. ${ARTICLE}`, ['http://x/a']);
  const b = capture(`Updated 2026-11-23 11:42. ${ARTICLE}`, ['http://x/a']);
  const c = capture(`Updated 24 November 2026, 9:05 am. ${ARTICLE}`, ['http://x/a']);
  assert.notEqual(a.payloadDigest, b.payloadDigest);
  assert.equal(classifyChange(a, { kind: 'fetched', fingerprint: b }).evidence, 'main-text-digest');
  assert.equal(classifyChange(a, { kind: 'fetched', fingerprint: c }).status, 'unchanged');
});

test('a small changed fragment (an advert word) is not a change; a rewritten text is', () => {
  const a = capture(`${ARTICLE} ${ARTICLE.toUpperCase()} Advert: buy boots.`, []);
  const small = capture(`${ARTICLE} ${ARTICLE.toUpperCase()} Advert: buy hats.`, []);
  const v = classifyChange(a, { kind: 'fetched', fingerprint: small });
  assert.equal(v.status, 'unchanged');
  assert.equal(v.evidence, 'shingles');
  assert.ok(v.similarity! >= 0.9 && v.similarity! < 1);
  const rewritten = capture('The council approved a new sea wall for the north quay after a long debate about costs, tourism and the fishing fleet.', []);
  const w = classifyChange(a, { kind: 'fetched', fingerprint: rewritten });
  assert.equal(w.status, 'content-changed');
  assert.ok(w.similarity! < 0.5);
});

test('a changed set of out-links: links changed, with the difference', () => {
  const a = capture(ARTICLE, ['http://x/a', 'http://x/b']);
  const b = capture(ARTICLE, ['http://x/b', 'http://x/c']);
  const v = classifyChange(a, { kind: 'fetched', fingerprint: b });
  assert.equal(v.status, 'links-changed');
  assert.deepEqual(v.linksAdded, ['http://x/c']);
  assert.deepEqual(v.linksRemoved, ['http://x/a']);
  // The order of links is not a change.
  assert.equal(classifyChange(a, { kind: 'fetched', fingerprint: capture(ARTICLE + ' ', ['http://x/b', 'http://x/a']) }).status, 'unchanged');
});

test('validators that say "same" while the payload changed are flagged inconsistent', () => {
  const a = capture(ARTICLE, [], { headers: { etag: '"same"' } });
  const b = capture(`${ARTICLE} Completely new closing paragraph about storms, gales and the lifeboat crew rescuing two sailors.`, [], { headers: { etag: '"same"' } });
  const v = classifyChange(a, { kind: 'fetched', fingerprint: b });
  assert.equal(v.validatorsInconsistent, true);
});

test('validators are trusted only when consistent with the content', () => {
  const at = Date.parse('2026-11-23T12:00:00Z');
  const fp = (headers: Record<string, string>, text = ARTICLE) => capture(text, [], { headers, at });
  assert.equal(validatorsTrusted(fp({ etag: '"abc"' })), true);
  assert.equal(validatorsTrusted(fp({ etag: 'W/"abc"' })), false);
  assert.equal(validatorsTrusted(fp({})), false);
  assert.equal(validatorsTrusted(fp({ 'last-modified': 'Mon, 02 Nov 2026 08:00:00 GMT' })), true);
  assert.equal(validatorsTrusted(fp({ 'last-modified': 'Mon, 23 Nov 2026 12:00:00 GMT' })), false, 'stamped "now"');
  assert.equal(validatorsTrusted(fp({ 'last-modified': 'Wed, 25 Nov 2026 08:00:00 GMT' })), false, 'in the future');
  assert.equal(validatorsTrusted(fp({ 'last-modified': 'Mon, 02 Nov 2026 08:00:00 GMT' }, `Updated 20 November 2026. ${ARTICLE}`)), false, 'content newer than the header');
});

test('content timestamps are found in several notations', () => {
  assert.deepEqual(findContentTimestamps('Posted 2026-03-12T10:30:00Z, edited March 14, 2026 and 1st April 2026.'), [
    '2026-03-12T10:30:00.000Z', '2026-03-14T00:00:00.000Z', '2026-04-01T00:00:00.000Z',
  ]);
  assert.deepEqual(findContentTimestamps('no dates here, version 2026-13-45'), []);
});

test('bottom-k sketches: exact Jaccard for small sets, symmetric, 1 for equal texts', () => {
  const a = shingleSketch('one two three four five six');
  const b = shingleSketch('one two three four five seven');
  // shingles: {1234, 2345, 3456} vs {1234, 2345, 3457}: 2 of 4
  assert.equal(sketchJaccard(a, b), 0.5);
  assert.equal(sketchJaccard(b, a), 0.5);
  assert.equal(sketchJaccard(a, a), 1);
  assert.equal(sketchJaccard([], []), 1);
  assert.equal(sketchJaccard(a, []), 0);
  assert.ok(shingleSketch(ARTICLE.repeat(20) + Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ')).length <= 128);
});

// Before, a visit cut off mid-body was compared as a whole one: the revisit's whole body had other
// text and links, and the page counted as changed (yellow or red, a change in the blur).
test('a visit a failed fetch cut off: missing (visit-cut), neither proved unchanged nor changed', () => {
  const half = ARTICLE.slice(0, ARTICLE.length / 2);
  const cutVisit = fingerprintCapture({ status: 200, headers: {}, payloadDigest: 'sha1:HALF', mainText: half, outLinks: [], fetchedAt: T0, cut: true });
  assert.equal(cutVisit.cut, true);
  const whole = capture(ARTICLE, ['http://x/a'], { at: T0 + 60_000 });
  assert.deepEqual([classifyChange(cutVisit, { kind: 'fetched', fingerprint: whole })].map((v) => [v.status, v.evidence]), [['missing', 'visit-cut']]);
  // A page gone at the revisit is gone, whatever its visit was.
  assert.equal(classifyChange(cutVisit, { kind: 'fetched', fingerprint: capture('Not found', [], { status: 404 }) }).evidence, 'gone');
  assert.equal('cut' in capture(ARTICLE, []), false, 'a whole visit\'s fingerprint says nothing of cuts');
});

// Before, a 304 was taken before the cut was looked at: a server answering 304 to a GET without
// validators counted a page whose visit was cut off unchanged (not-modified, change rate 0, certified).
test('a visit a failed fetch cut off: a 304 or a bomb at the revisit is visit-cut too, not unchanged nor changed', () => {
  const cutVisit = fingerprintCapture({ status: 200, headers: { etag: '"v1"' }, payloadDigest: 'sha1:HALF', mainText: ARTICLE.slice(0, 40), outLinks: [], fetchedAt: T0, cut: true });
  const of = (v: ReturnType<typeof classifyChange>) => [v.status, v.evidence];
  assert.deepEqual(of(classifyChange(cutVisit, { kind: 'not-modified', at: T0 + 60_000, conditional: false })), ['missing', 'visit-cut']);
  assert.deepEqual(of(classifyChange(cutVisit, { kind: 'undecodable', at: T0 + 60_000, payloadDigest: 'sha1:BOMB' })), ['missing', 'visit-cut']);
  // What says nothing of the page, or that it is gone, still says so.
  assert.deepEqual(of(classifyChange(cutVisit, { kind: 'failed', at: T0, status: 503, reason: 'http-503' })), ['missing', 'unreachable']);
  assert.deepEqual(of(classifyChange(cutVisit, { kind: 'failed', at: T0, status: 410, reason: 'http-410' })), ['missing', 'gone']);
});

// Found by an exploratory session (time): the offset of an RFC 3339 timestamp was matched and dropped,
// so a page dated `2026-03-12T10:30:00+05:30` was dated 10:30 UTC, five and a half hours late.
test('a content timestamp with an offset is taken at that offset; a time range after a space is no offset', () => {
  assert.deepEqual(findContentTimestamps('Updated 2026-03-12T10:30:00+05:30'), ['2026-03-12T05:00:00.000Z']);
  assert.deepEqual(findContentTimestamps('Updated 2026-03-12T10:30-0500'), ['2026-03-12T15:30:00.000Z']);
  assert.deepEqual(findContentTimestamps('Updated 2026-03-12T10:30:00Z'), ['2026-03-12T10:30:00.000Z']);
  assert.deepEqual(findContentTimestamps('Workshop 2026-03-12 10:30-11:30'), ['2026-03-12T10:30:00.000Z']);
});

// A carry-over of the rounds helper: a server that writes the visitor's session into every link
// made each revisit links-changed, and each recrawl round refetch the page as changed.
test('links that differ only by a session id are the same links; a real link change still counts', () => {
  const visit = capture(ARTICLE, [
    'http://forum.test/thread;jsessionid=A1B2C3D4E5F6A7B8C9D0E1F2A3B4C5D6?id=4',
    'http://forum.test/list.php?PHPSESSID=0123456789abcdef0123456789abcdef&page=2',
    'http://forum.test/showthread.php?s=0123456789abcdef0123456789abcdef&t=7',
  ]);
  const sameLinks = capture(ARTICLE, [
    'http://forum.test/thread;jsessionid=FFFFEEEEDDDDCCCCBBBBAAAA99998888?id=4',
    'http://forum.test/list.php?PHPSESSID=fedcba9876543210fedcba9876543210&page=2',
    'http://forum.test/showthread.php?s=ffffffffffffffffffffffffffffffff&t=7',
  ], { at: T0 + 60_000 });
  const v = classifyChange(visit, { kind: 'fetched', fingerprint: sameLinks });
  assert.deepEqual([v.status, v.evidence], ['unchanged', 'main-text-digest']);
  const oneMore = capture(ARTICLE, [...sameLinks.outLinks, 'http://forum.test/showthread.php?t=8'], { at: T0 + 60_000 });
  const w = classifyChange(visit, { kind: 'fetched', fingerprint: oneMore });
  assert.equal(w.status, 'links-changed');
  assert.deepEqual(w.linksAdded, ['http://forum.test/showthread.php?t=8']);
});

// Sketches are stored with a crawl's pages and compared with those of later runs: the faster sketch
// (shingles hashed in place, a typed-array sort) must give the very values the definition gives.
test('the sketch is the k smallest distinct fnv1a hashes of the text\'s shingles joined by spaces, as it was defined', () => {
  const fnv1a = (s: string) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
  };
  const definition = (text: string) => {
    const words = normalizedWords(text);
    const hashes = new Set<number>();
    if (words.length > 0 && words.length < SHINGLE_WIDTH) hashes.add(fnv1a(words.join(' ')));
    for (let i = 0; i + SHINGLE_WIDTH <= words.length; i++) hashes.add(fnv1a(words.slice(i, i + SHINGLE_WIDTH).join(' ')));
    return [...hashes].sort((a, b) => a - b).slice(0, SKETCH_SIZE);
  };
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const vocabulary = ['harbour', 'tide', 'Quay', 'fähre', 'марка', '港口', 'naïve', '12 March 2026', '10:15', 'über', 'x'];
  const texts = ['', 'one', 'two words', 'three short words', ARTICLE, ARTICLE.repeat(3), 'tide '.repeat(500)];
  for (let t = 0; t < 20; t++) texts.push(Array.from({ length: next() % 3000 }, () => vocabulary[next() % vocabulary.length]).join(next() % 2 ? ' ' : ', '));
  for (const text of texts) assert.deepEqual(shingleSketch(text), definition(text), text.slice(0, 60));
  for (const text of texts.slice(4)) assert.deepEqual(fingerprintCapture({ status: 200, headers: {}, payloadDigest: 'sha1:A', mainText: text, outLinks: [], fetchedAt: T0 }).sketch, definition(text));
});
