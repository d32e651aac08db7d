import { test } from 'node:test';
import assert from 'node:assert/strict';
import { feedBodyFault, feedRobotsRefusal, pollEnd } from '../../../worker/crawler/feed-monitor';
import { DecompressionBombError } from '../../../worker/fetch';
import type { HttpExchange } from '../../../worker/capture';

const exchange = (status: number) => ({ status }) as HttpExchange;
const answered = (status: number) => ({ kind: 'outcome' as const, outcome: { ok: true as const, exchange: exchange(status), durationMs: 5, retries: 0 } });

test('how a feed poll ended: answered, refused by robots.txt, not answered', () => {
  assert.deepEqual(pollEnd(answered(200)), { outcome: 'ok', status: 200, detail: null });
  assert.deepEqual(pollEnd(answered(404)), { outcome: 'http-error', status: 404, detail: 'answered 404' });
  assert.deepEqual(pollEnd(answered(503)), { outcome: 'http-error', status: 503, detail: 'answered 503' });
  assert.deepEqual(pollEnd(answered(302)), { outcome: 'failed', status: 302, detail: 'its redirects led to no feed' });
  assert.deepEqual(pollEnd({ kind: 'robots-refused', verdict: { allowed: false, reason: 'robots-disallowed' } }), { outcome: 'robots', status: null, detail: 'robots.txt disallows it' });
  assert.deepEqual(pollEnd({ kind: 'robots-refused', verdict: { allowed: false, reason: 'robots-unavailable' } }), { outcome: 'robots', status: null, detail: 'robots.txt could not be read: unreachable through its tries, it counts as disallowing the site' });
  // Not fetched for now: told apart from unreachable for good.
  assert.deepEqual(pollEnd({ kind: 'robots-refused', verdict: { allowed: false, reason: 'robots-retry', retryAt: 0 } }), { outcome: 'robots', status: null, detail: 'robots.txt could not be fetched for now; asked again at the next poll' });
  assert.deepEqual(pollEnd({ kind: 'dns-failed', message: 'ENOTFOUND feeds.example' }), { outcome: 'failed', status: null, detail: 'the host name did not resolve: ENOTFOUND feeds.example' });
  assert.deepEqual(
    pollEnd({ kind: 'outcome', outcome: { ok: false, reason: 'total-timeout', message: 'no answer in 30 s', durationMs: 30_000, retries: 2, partial: exchange(200) } }),
    { outcome: 'failed', status: 200, detail: 'total-timeout: no answer in 30 s' },
  );
  assert.deepEqual(pollEnd(null), { outcome: 'failed', status: null, detail: 'not requested' });
});

test('a feed body not to be read whole, and its poll\'s crawl-log outcome: cut by the transport, its content coding damaged or stopping early, a bomb', () => {
  const whole = { damaged: false, cutOff: false };
  const kept = "its items not read, the feed's remembered items kept";
  const unreadable = (why: string) => ({ reason: 'unreadable-body', detail: `${why}; ${kept}` });
  assert.equal(feedBodyFault(null, whole, 'gzip', 1024), null);
  assert.equal(feedBodyFault(null, whole, undefined, 1024), null);
  assert.deepEqual(feedBodyFault('length', whole, undefined, 1024), unreadable('the body was cut at the size cap (limits.maxBodyBytes)'));
  assert.deepEqual(feedBodyFault('disconnect', whole, 'gzip', 1024), unreadable('the body was cut short (disconnect)'));
  assert.deepEqual(feedBodyFault(null, { damaged: true, cutOff: false }, 'gzip', 1024), unreadable('its content coding (gzip) is damaged midway'));
  assert.deepEqual(feedBodyFault(null, { damaged: false, cutOff: true }, ' br ', 1024), unreadable('its content coding (br) stops before its end: the body was cut short'));
  assert.deepEqual(feedBodyFault(null, new DecompressionBombError(1024), 'gzip', 1024), { reason: 'decompression-bomb', detail: `the body decodes to more than 1024 bytes (limits.maxDecodedBytes); ${kept}` });
  // With no coding to undo, a body longer than the cap is no bomb (maxBodyBytes set higher): too long to read.
  assert.deepEqual(feedBodyFault(null, new DecompressionBombError(1024), undefined, 1024), unreadable('the body is longer than limits.maxDecodedBytes (1024 bytes)'));
  assert.deepEqual(feedBodyFault(null, new DecompressionBombError(1024), 'identity', 1024), unreadable('the body is longer than limits.maxDecodedBytes (1024 bytes)'));
  assert.deepEqual(feedBodyFault(null, new Error('EACCES: spool file'), 'gzip', 1024), unreadable('the body could not be decoded: EACCES: spool file'));
});

test("a feed poll robots.txt refused, in the crawl log: disallowed or unavailable for good, an exclusion as a page's is; not fetched for now, a failure as a recrawl refetch's is", () => {
  assert.deepEqual(feedRobotsRefusal({ allowed: false, reason: 'robots-disallowed' }), { outcome: 'robots', message: 'feed not polled: disallowed by robots.txt', failed: false });
  assert.deepEqual(feedRobotsRefusal({ allowed: false, reason: 'robots-unavailable' }), { outcome: 'robots-unavailable', message: 'feed not polled: robots.txt unavailable', failed: false });
  assert.deepEqual(feedRobotsRefusal({ allowed: false, reason: 'robots-retry', retryAt: 1_000 }), { outcome: 'robots-retry', message: 'feed not polled: robots.txt could not be fetched for now; asked again at its next poll', failed: true });
});
