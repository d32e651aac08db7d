import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errors } from 'undici';
import { classifyError, DecompressionBombError, DnsError, failureMessage, TimeoutError, truncationOf } from '../../../worker/fetch';

const coded = (code: string) => Object.assign(new Error(code), { code });

test('our own errors decide by class', () => {
  assert.deepEqual(classifyError(new TimeoutError('connect', 10)), { reason: 'connect-timeout', retryable: true });
  assert.deepEqual(classifyError(new TimeoutError('headers', 10)), { reason: 'headers-timeout', retryable: true });
  assert.deepEqual(classifyError(new TimeoutError('total', 10)), { reason: 'total-timeout', retryable: false });
  assert.deepEqual(classifyError(new TimeoutError('dns', 10)), { reason: 'dns', retryable: false });
  assert.deepEqual(classifyError(new DnsError('x.test', 'NXDOMAIN')), { reason: 'dns', retryable: false });
  assert.deepEqual(classifyError(new DecompressionBombError(5)), { reason: 'decompression-bomb', retryable: false });
});

test('undici errors', () => {
  assert.deepEqual(classifyError(new errors.SocketError('other side closed')), { reason: 'connection-reset', retryable: true });
  assert.deepEqual(classifyError(new errors.ConnectTimeoutError()), { reason: 'connect-timeout', retryable: true });
  assert.deepEqual(classifyError(new errors.HeadersTimeoutError()), { reason: 'headers-timeout', retryable: true });
  assert.deepEqual(classifyError(new errors.BodyTimeoutError()), { reason: 'total-timeout', retryable: false });
});

test('node errors by code, also when wrapped as a cause', () => {
  assert.deepEqual(classifyError(coded('ECONNREFUSED')), { reason: 'connect-refused', retryable: true });
  assert.deepEqual(classifyError(coded('ECONNRESET')), { reason: 'connection-reset', retryable: true });
  assert.deepEqual(classifyError(new Error('fetch failed', { cause: coded('ECONNRESET') })), { reason: 'connection-reset', retryable: true });
  assert.deepEqual(classifyError(coded('DEPTH_ZERO_SELF_SIGNED_CERT')), { reason: 'tls', retryable: false });
  assert.deepEqual(classifyError(coded('ERR_TLS_CERT_ALTNAME_INVALID')), { reason: 'tls', retryable: false });
  assert.deepEqual(classifyError(coded('HPE_INVALID_CONSTANT')), { reason: 'bad-http', retryable: false });
  assert.deepEqual(classifyError(coded('UND_ERR_HEADERS_OVERFLOW')), { reason: 'bad-http', retryable: false });
  const parserError = Object.assign(new Error('Response does not match the HTTP/1.1 protocol (Invalid character in chunk size)'), { name: 'HTTPParserError' });
  assert.deepEqual(classifyError(parserError), { reason: 'bad-http', retryable: false }, "undici's parser error without a code");
  assert.deepEqual(classifyError(coded('EMFILE')), { reason: 'internal', retryable: true }, 'out of file descriptors: later some are free');
  assert.deepEqual(classifyError(coded('ENOTFOUND')), { reason: 'dns', retryable: false });
});

// Found by an exploratory session: a chunked body broken part-way by a chunk size that is no number
// was archived as `WARC-Truncated: disconnect`, which WARC 1.1 defines as "network disconnect".
test("a body cut off by a failed fetch is truncated by time, by a network disconnect, or for another reason when the response broke HTTP", () => {
  assert.equal(truncationOf(new TimeoutError('total', 10)), 'time');
  assert.equal(truncationOf(new errors.SocketError('other side closed')), 'disconnect');
  assert.equal(truncationOf(coded('ECONNRESET')), 'disconnect');
  const parserError = Object.assign(new Error('Response does not match the HTTP/1.1 protocol (Invalid character in chunk size)'), { name: 'HTTPParserError' });
  assert.equal(truncationOf(parserError), 'unspecified');
  assert.equal(truncationOf(coded('HPE_INVALID_CHUNK_SIZE')), 'unspecified');
});

test('anything else is internal and not retried', () => {
  assert.deepEqual(classifyError(new Error('boom')), { reason: 'internal', retryable: false });
  assert.deepEqual(classifyError('a string'), { reason: 'internal', retryable: false });
  assert.deepEqual(classifyError(null), { reason: 'internal', retryable: false });
});

test("failure messages in the archivist's words: a head over the limit, a body shorter than its Content-Length; other errors as they are", () => {
  const limit = 256 * 1024;
  assert.equal(failureMessage(new errors.HeadersOverflowError(), undefined, limit), 'response head larger than 256 KB, the most the crawler reads of one');
  const closed = new errors.SocketError('other side closed');
  assert.equal(failureMessage(closed, { received: 40, announced: 1000 }, limit), 'connection closed after 40 of 1,000 bytes announced by Content-Length');
  assert.equal(failureMessage(coded('ECONNRESET'), { received: 0, announced: 12_000 }, limit), 'connection closed after 0 of 12,000 bytes announced by Content-Length');
  // No length announced, or all of it came: the error's own words.
  assert.equal(failureMessage(closed, { received: 40, announced: null }, limit), 'other side closed');
  assert.equal(failureMessage(closed, { received: 1000, announced: 1000 }, limit), 'other side closed');
  assert.equal(failureMessage(closed, undefined, limit), 'other side closed');
  // A body cut by time is not a closed connection, whatever its length.
  assert.equal(failureMessage(new TimeoutError('total', 10), { received: 40, announced: 1000 }, limit), new TimeoutError('total', 10).message);
});
