import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollEnd } from '../../../worker/crawler/feed-monitor';
import type { HttpExchange } from '../../../worker/capture';

const exchange = (status: number) => ({ status }) as HttpExchange;
const answered = (status: number) => ({ kind: 'outcome' as const, outcome: { ok: true as const, exchange: exchange(status), durationMs: 5, retries: 0 } });

test('how a feed poll ended: answered, refused by robots.txt, not answered', () => {
  assert.deepEqual(pollEnd(answered(200)), { outcome: 'ok', status: 200, detail: null });
  assert.deepEqual(pollEnd(answered(404)), { outcome: 'http-error', status: 404, detail: 'answered 404' });
  assert.deepEqual(pollEnd(answered(503)), { outcome: 'http-error', status: 503, detail: 'answered 503' });
  assert.deepEqual(pollEnd(answered(302)), { outcome: 'failed', status: 302, detail: 'its redirects led to no feed' });
  assert.deepEqual(pollEnd({ kind: 'robots-refused', verdict: { allowed: false, reason: 'robots-disallowed' } }), { outcome: 'robots', status: null, detail: 'robots.txt disallows it' });
  assert.deepEqual(pollEnd({ kind: 'robots-refused', verdict: { allowed: false, reason: 'robots-unavailable' } }), { outcome: 'robots', status: null, detail: 'robots.txt could not be read' });
  assert.deepEqual(pollEnd({ kind: 'dns-failed', message: 'ENOTFOUND feeds.example' }), { outcome: 'failed', status: null, detail: 'the host name did not resolve: ENOTFOUND feeds.example' });
  assert.deepEqual(
    pollEnd({ kind: 'outcome', outcome: { ok: false, reason: 'total-timeout', message: 'no answer in 30 s', durationMs: 30_000, retries: 2, partial: exchange(200) } }),
    { outcome: 'failed', status: 200, detail: 'total-timeout: no answer in 30 s' },
  );
  assert.deepEqual(pollEnd(null), { outcome: 'failed', status: null, detail: 'not requested' });
});
