import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseIcd } from '../../../worker/icd/schema';
import { screenScoredUrls, scoredUrlsSchema } from '../../../worker/frontier/scored-intake';

const icd = parseIcd({ name: 'intake', seeds: ['http://tides.example/'], scope: { exclude: ['/private/'] } });

test('scored URLs are canonicalised; out-of-scope and broken ones are rejected with the reason', () => {
  const screened = screenScoredUrls(
    [
      { url: 'HTTP://Tides.Example:80/a#frag', score: 0.9 },
      { url: 'http://elsewhere.example/b', score: 0.5 },
      { url: 'http://tides.example/private/c', score: 0.5 },
      { url: 'not a url', score: 0.1 },
      { url: 'http://elsewhere.example/spam', score: 0, blacklist: true },
    ],
    icd,
  );
  assert.deepEqual(screened.accepted, [
    { url: 'http://tides.example/a', score: 0.9, blacklist: false },
    { url: 'http://elsewhere.example/spam', score: 0, blacklist: true },
  ]);
  assert.deepEqual(screened.rejected, [
    { url: 'http://elsewhere.example/b', reason: 'out-of-scope-host' },
    { url: 'http://tides.example/private/c', reason: 'exclude-match' },
    { url: 'not a url', reason: 'invalid-url' },
  ]);
});

test('the request schema wants a score in [0,1], a non-empty list and no unknown fields', () => {
  assert.equal(scoredUrlsSchema.safeParse([{ url: 'http://a.example/', score: 0.5 }]).success, true);
  assert.equal(scoredUrlsSchema.safeParse([{ url: 'http://a.example/', score: 1.5 }]).success, false);
  assert.equal(scoredUrlsSchema.safeParse([{ url: 'http://a.example/', score: -0.1 }]).success, false);
  assert.equal(scoredUrlsSchema.safeParse([]).success, false);
  assert.equal(scoredUrlsSchema.safeParse([{ url: 'http://a.example/', score: 0.5, priority: 3 }]).success, false);
  assert.equal(scoredUrlsSchema.safeParse({ url: 'http://a.example/', score: 0.5 }).success, false);
});

test('a URL given twice is accepted once: with its last score, or blacklisted if any entry says so', () => {
  const screened = screenScoredUrls(
    [
      { url: 'http://tides.example/a', score: 0.2 },
      { url: 'http://tides.example/b', score: 0.5 },
      { url: 'HTTP://TIDES.example:80/a#again', score: 0.9 },
      { url: 'http://tides.example/c', score: 0.7, blacklist: true },
      { url: 'http://tides.example/c', score: 0.8 },
      { url: 'http://tides.example/b', score: 0.1, blacklist: true },
      { url: 'http://elsewhere.example/x', score: 0.3 },
      { url: 'http://elsewhere.example/x', score: 0.4 },
    ],
    icd,
  );
  assert.deepEqual(screened.accepted, [
    { url: 'http://tides.example/a', score: 0.9, blacklist: false },
    { url: 'http://tides.example/b', score: 0.1, blacklist: true },
    { url: 'http://tides.example/c', score: 0.8, blacklist: true },
  ]);
  // Rejections are reported per entry, as sent.
  assert.deepEqual(screened.rejected.map((r) => r.url), ['http://elsewhere.example/x', 'http://elsewhere.example/x']);
});

test('URLs given under other session ids are one URL, as to the seen-set: accepted once, as first written, with the last score', () => {
  const screened = screenScoredUrls(
    [
      { url: 'http://tides.example/a;jsessionid=AAAAAAAAAAAAAAAAAAAA', score: 0.2 },
      { url: 'http://tides.example/b?PHPSESSID=0123456789abcdef0123', score: 0.5 },
      { url: 'http://tides.example/a;jsessionid=BBBBBBBBBBBBBBBBBBBB', score: 0.9 },
      { url: 'http://tides.example/b', score: 0.4, blacklist: true },
      { url: 'http://tides.example/a', score: 0.7 },
    ],
    icd,
  );
  assert.deepEqual(screened.accepted, [
    { url: 'http://tides.example/a;jsessionid=AAAAAAAAAAAAAAAAAAAA', score: 0.7, blacklist: false },
    { url: 'http://tides.example/b?PHPSESSID=0123456789abcdef0123', score: 0.4, blacklist: true },
  ]);
});
