import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpExchange } from '../../../worker/capture';
import type { FetchOutcome } from '../../../worker/fetch';
import { classifyRobotsResponse, robotsFailureMessage } from '../../../worker/robots';

const FROM = 'http://a.test/robots.txt';
function exchange(status: number, headers: Record<string, string> = {}, truncated: HttpExchange['truncated'] = null): HttpExchange {
  return {
    url: FROM, date: new Date(0), ip: '192.0.2.1', requestHead: Buffer.alloc(0), responseHead: Buffer.alloc(0), status, headers,
    body: { kind: 'memory', bytes: Buffer.alloc(0) }, payloadDigest: 'sha1:X', truncated,
  };
}
const ok = (ex: HttpExchange): FetchOutcome => ({ ok: true, exchange: ex, durationMs: 1, retries: 0 });

test('2xx is parsed, also when cut at the size cap', () => {
  assert.equal(classifyRobotsResponse(ok(exchange(200)), FROM).kind, 'parse');
  assert.equal(classifyRobotsResponse(ok(exchange(200, {}, 'length')), FROM).kind, 'parse');
});

test('a 2xx body cut by time or disconnect is unreachable, not permission', () => {
  const partial: FetchOutcome = { ok: false, reason: 'total-timeout', message: 't', durationMs: 1, retries: 0, partial: exchange(200, {}, 'time') };
  assert.equal(classifyRobotsResponse(partial, FROM).kind, 'unreachable');
});

test('3xx: the Location resolved against the URL fetched; without one, unavailable', () => {
  assert.deepEqual(classifyRobotsResponse(ok(exchange(301, { location: '/real.txt' })), FROM), { kind: 'redirect', location: 'http://a.test/real.txt' });
  assert.equal(classifyRobotsResponse(ok(exchange(302)), FROM).kind, 'allow-all');
  // A raw UTF-8 Location (held as one character a byte) is read as UTF-8.
  const raw = Buffer.from('/räume.txt', 'utf8').toString('latin1');
  assert.deepEqual(classifyRobotsResponse(ok(exchange(301, { location: raw })), FROM), { kind: 'redirect', location: 'http://a.test/r%C3%A4ume.txt' });
});

// Before, such a Location was fetched as the next hop, failed as a request with no answer (unsupported
// scheme), was retried with back-off, and at last the whole site was disallowed (robots-unavailable).
test('3xx to a URL the crawler cannot fetch (mailto:, javascript:, ftp:) is unavailable, as one without a target', () => {
  for (const location of ['mailto:webmaster@a.test', 'javascript:void(0)', 'ftp://a.test/robots.txt']) {
    const scheme = new URL(location).protocol;
    assert.deepEqual(classifyRobotsResponse(ok(exchange(301, { location })), FROM), { kind: 'allow-all', why: `HTTP 301 to a ${scheme} URL` });
  }
  assert.equal(classifyRobotsResponse(ok(exchange(301, { location: 'https://b.test/robots.txt' })), FROM).kind, 'redirect');
  // Different Location headers (the headers record keeps them apart by a line break) name no target either.
  assert.deepEqual(classifyRobotsResponse(ok(exchange(302, { location: '/a.txt\n/b.txt' })), FROM), { kind: 'allow-all', why: 'HTTP 302 with 2 different Location headers' });
});

test('4xx allow all, except 429; 5xx, headers and total timeouts and cut connections are unreachable; silence when nothing was received', () => {
  assert.equal(classifyRobotsResponse(ok(exchange(404)), FROM).kind, 'allow-all');
  assert.equal(classifyRobotsResponse(ok(exchange(403)), FROM).kind, 'allow-all');
  assert.equal(classifyRobotsResponse(ok(exchange(429)), FROM).kind, 'unreachable');
  const fivexx: FetchOutcome = { ok: false, reason: 'http-5xx', message: 'HTTP 503', durationMs: 1, retries: 2, partial: exchange(503) };
  assert.equal(classifyRobotsResponse(fivexx, FROM).kind, 'unreachable');
  const tls: FetchOutcome = { ok: false, reason: 'tls', message: 'm', durationMs: 1, retries: 2 };
  // A certificate the crawl refuses: every try fails alike, so the host's URLs fail at once, as with no connection.
  assert.deepEqual(classifyRobotsResponse(tls, FROM), { kind: 'no-connection', failure: { reason: 'tls', message: 'm' } });
  // A connection closed or reset after bytes arrived (half a status line): a broken answer, no silence.
  const cutAfterBytes: FetchOutcome = { ok: false, reason: 'connection-reset', message: 'other side closed', durationMs: 1, retries: 2, bytesRead: 25 };
  assert.deepEqual(classifyRobotsResponse(cutAfterBytes, FROM), { kind: 'unreachable', why: 'connection-reset: other side closed' });
  // A timeout with nothing received: unreachable, and silent (the cache gives such a host fewer tries).
  for (const reason of ['headers-timeout', 'total-timeout'] as const) {
    const failed: FetchOutcome = { ok: false, reason, message: 'm', durationMs: 1, retries: 2 };
    assert.deepEqual(classifyRobotsResponse(failed, FROM), { kind: 'unreachable', why: `${reason}: m`, silence: { reason, message: 'm' } });
  }
  // Closed or reset with nothing received (bytesRead 0, or not told: a bare ECONNRESET): silence too.
  for (const read of [{ bytesRead: 0 }, {}]) {
    const hungUp: FetchOutcome = { ok: false, reason: 'connection-reset', message: 'm', durationMs: 1, retries: 2, ...read };
    assert.deepEqual(classifyRobotsResponse(hungUp, FROM), { kind: 'unreachable', why: 'connection-reset: m', silence: { reason: 'connection-reset', message: 'm' } });
  }
  // A timeout after part of a response head arrived: a broken answer too, no silence.
  for (const reason of ['headers-timeout', 'total-timeout'] as const) {
    const stalled: FetchOutcome = { ok: false, reason, message: 'm', durationMs: 1, retries: 0, bytesRead: 27 };
    assert.deepEqual(classifyRobotsResponse(stalled, FROM), { kind: 'unreachable', why: `${reason}: m` });
  }
  // A total timeout after a response head came: the server answered; no silence.
  const cut: FetchOutcome = { ok: false, reason: 'total-timeout', message: 'm', durationMs: 1, retries: 0, partial: exchange(503) };
  assert.deepEqual(classifyRobotsResponse(cut, FROM), { kind: 'unreachable', why: 'HTTP 503' });
});

test('robotsFailureMessage: no connection, or no answer at every try', () => {
  assert.equal(robotsFailureMessage({ reason: 'connect-refused', message: 'connect ECONNREFUSED' }), 'no connection to the host for robots.txt (connect ECONNREFUSED)');
  assert.equal(robotsFailureMessage({ reason: 'headers-timeout', message: 'headers timeout after 500 ms', silentTries: 2 }), 'no answer from the host for robots.txt, tried twice (headers timeout after 500 ms)');
  assert.equal(robotsFailureMessage({ reason: 'headers-timeout', message: 'x', silentTries: 1 }), 'no answer from the host for robots.txt, tried once (x)');
});

test('no connection at all (refused, timed out, unresolvable) is told apart, with the fetch\'s reason and message', () => {
  const refused: FetchOutcome = { ok: false, reason: 'connect-refused', message: 'connect ECONNREFUSED 127.0.0.1:9', durationMs: 1, retries: 2 };
  assert.deepEqual(classifyRobotsResponse(refused, FROM), { kind: 'no-connection', failure: { reason: 'connect-refused', message: 'connect ECONNREFUSED 127.0.0.1:9' } });
  const dns: FetchOutcome = { ok: false, reason: 'dns', message: 'DNS a.test: ENOTFOUND', durationMs: 0, retries: 0 };
  assert.deepEqual(classifyRobotsResponse(dns, FROM), { kind: 'no-connection', failure: { reason: 'dns', message: 'DNS a.test: ENOTFOUND' } });
  // No handshake completed in any attempt (packets dropped): no server answered, as for a refusal.
  const dark: FetchOutcome = { ok: false, reason: 'connect-timeout', message: 'connect timeout after 10000 ms', durationMs: 30_000, retries: 2 };
  assert.deepEqual(classifyRobotsResponse(dark, FROM), { kind: 'no-connection', failure: { reason: 'connect-timeout', message: 'connect timeout after 10000 ms' } });
});

// Found by an exploratory session: a robots.txt redirecting to 0.0.0.0, refused by the address
// guard, was retried as unreachable for ~70 s and the site then taken as disallowing everything.
test('a robots.txt on an address the crawl may not reach (private-address) is unavailable, not unreachable', () => {
  const refused: FetchOutcome = { ok: false, reason: 'private-address', message: 'not requested: 0.0.0.0 is an unspecified address', durationMs: 0, retries: 0 };
  assert.deepEqual(classifyRobotsResponse(refused, FROM), { kind: 'allow-all', why: 'private-address: not requested: 0.0.0.0 is an unspecified address' });
});
