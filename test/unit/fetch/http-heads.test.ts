import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildRequestHead, buildResponseHead, headersRecord, withoutChunked } from '../../../worker/fetch';
import { contentLengthFault, locationOf, reasonPhraseOf, statusLineOf } from '../../../worker/fetch/http-heads';

test('request head: request line, host and connection first (as undici writes them), then our headers', () => {
  const head = buildRequestHead('/a?b=c', 'example.org:8080', [
    ['User-Agent', 'T/1'],
    ['Accept', '*/*'],
  ]);
  assert.equal(head.toString('latin1'), 'GET /a?b=c HTTP/1.1\r\nhost: example.org:8080\r\nconnection: keep-alive\r\nUser-Agent: T/1\r\nAccept: */*\r\n\r\n');
});

test('response head keeps raw names, values and order; drops chunked from Transfer-Encoding', () => {
  const raw = ['Content-Type', 'text/html', 'transfer-encoding', 'chunked', 'X-B', 'two', 'X-A', 'one'].map((s) => Buffer.from(s));
  assert.equal(buildResponseHead(200, 'OK', raw).toString('latin1'), 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-B: two\r\nX-A: one\r\n\r\n');
  const coded = buildResponseHead(404, 'Not Found', ['Transfer-Encoding', 'gzip, chunked']);
  assert.equal(coded.toString('latin1'), 'HTTP/1.1 404 Not Found\r\nTransfer-Encoding: gzip\r\n\r\n');
});

test('response head: Transfer-Encoding kept whole when chunked is not its last coding (the body was not de-chunked), rewritten over its lines when it is', () => {
  assert.equal(buildResponseHead(200, 'OK', ['Transfer-Encoding', 'chunked, gzip']).toString('latin1'), 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n');
  assert.equal(buildResponseHead(200, 'OK', ['Transfer-Encoding', 'chunked', 'Transfer-Encoding', 'gzip']).toString('latin1'), 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n');
  assert.equal(buildResponseHead(200, 'OK', ['Transfer-Encoding', 'gzip', 'X', '1', 'transfer-encoding', 'Chunked']).toString('latin1'), 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nX: 1\r\n\r\n');
});

test('response head: a Content-Length beside Transfer-Encoding, in either order, is left out (it did not frame the body); alone it stays', () => {
  assert.equal(buildResponseHead(200, 'OK', ['Content-Length', '100', 'Transfer-Encoding', 'chunked', 'X', '1']).toString('latin1'), 'HTTP/1.1 200 OK\r\nX: 1\r\n\r\n');
  assert.equal(buildResponseHead(200, 'OK', ['Transfer-Encoding', 'gzip', 'content-length', '3']).toString('latin1'), 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n');
  assert.equal(buildResponseHead(200, 'OK', ['Content-Length', '3']).toString('latin1'), 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n');
});

test('contentLengthFault: what in a head stops the parser once it has a Content-Length', () => {
  const fault = (head: string) => contentLengthFault(Buffer.from(head, 'latin1'));
  assert.equal(fault('HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n12\r\n'), 'Transfer-Encoding beside Content-Length');
  assert.equal(fault('HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n'), 'a Content-Length too large to read (99999999999999999999)');
  assert.equal(fault('HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551615\r\nX: \x01\r\n'), 'a line after its Content-Length that it cannot parse', 'the largest length llhttp reads');
  assert.equal(fault('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5x\r\n'), 'a Content-Length that is no number ("5x")');
  assert.equal(fault('HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 7\r\n\r\n'), 'Content-Length given more than once with different values (5, 7): where its body ends is unknown');
  assert.equal(fault('HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\n'), 'its Content-Length given more than once with one value');
  assert.equal(fault('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Folded: a\r\n b\r\n'), 'a line after its Content-Length that it cannot parse');
  // The head that failed is the last: an interim one before it says nothing of it.
  assert.equal(fault('HTTP/1.1 103 Early Hints\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nHTTP/1.1 200 OK\nContent-Length: 5\nTransfer-Encoding: chunked\n'), 'Transfer-Encoding beside Content-Length');
  assert.equal(fault(''), 'something after its Content-Length');
});

test('response head: empty reason phrase keeps the separating space; header bytes pass through untouched', () => {
  const latin = Buffer.from([0x63, 0x61, 0x66, 0xe9]); // "café" in latin-1
  const head = buildResponseHead(204, '', [Buffer.from('X-Name'), latin]);
  assert.deepEqual(head, Buffer.concat([Buffer.from('HTTP/1.1 204 \r\nX-Name: '), latin, Buffer.from('\r\n\r\n')]));
});

test('response head: the reason phrase as its bytes, given as bytes or one character a byte', () => {
  const latin = Buffer.from('Tr\xe9s bien', 'latin1');
  const expected = Buffer.concat([Buffer.from('HTTP/1.1 200 '), latin, Buffer.from('\r\n\r\n')]);
  assert.deepEqual(buildResponseHead(200, latin, []), expected);
  assert.deepEqual(buildResponseHead(200, 'Tr\xe9s bien', []), expected);
});

test('reasonPhraseOf: the bytes of the reason phrase of the head with that status, past interim heads, whatever the line ends', () => {
  const received = Buffer.from('HTTP/1.1 103 Early \xe9\r\nLink: </a>\r\n\r\nHTTP/1.0 200 Tr\xe9s  bien\r\nX: 1\r\n\r\nHTTP/1.1 404 body', 'latin1');
  assert.equal(reasonPhraseOf(received, 200)?.toString('latin1'), 'Tr\xe9s  bien');
  assert.equal(reasonPhraseOf(received, 103)?.toString('latin1'), 'Early \xe9');
  assert.equal(reasonPhraseOf(received, 404), null, 'a body is no head');
  assert.equal(reasonPhraseOf(Buffer.from('HTTP/1.1 100\n\nHTTP/1.1 204\nX: \xe9\n\n', 'latin1'), 204)?.toString('latin1'), '');
  assert.equal(reasonPhraseOf(Buffer.from('HTTP/1.1 200 Tr\xe9', 'latin1'), 200), null, 'the line not yet whole');
  assert.equal(reasonPhraseOf(Buffer.from('HTTP/1.1 2000 x\r\n\r\n'), 200), null);
});

test('withoutChunked', () => {
  assert.equal(withoutChunked('chunked'), null);
  assert.equal(withoutChunked(' Chunked '), null);
  assert.equal(withoutChunked('gzip, chunked'), 'gzip');
  assert.equal(withoutChunked('identity'), 'identity');
});

test('headers record: lower-case names, repeats joined, set-cookie kept apart by newlines', () => {
  assert.deepEqual(headersRecord(['Vary', 'Accept', 'VARY', 'Cookie', 'Set-Cookie', 'a=1, b', 'set-cookie', 'c=2']), {
    vary: 'Accept, Cookie',
    'set-cookie': 'a=1, b\nc=2',
  });
});

// Before, two Location headers were joined with ", " into a URL neither named ("/target,%20/other"), and it was crawled.
test('Location is one URL: a repeat of it is one, different ones are several (no target), none when empty', () => {
  assert.deepEqual(locationOf(headersRecord(['Location', '/target', 'location', '/target'])), { kind: 'one', text: '/target' });
  assert.deepEqual(locationOf(headersRecord(['Location', '/target', 'Location', '/other'])), { kind: 'several', values: ['/target', '/other'] });
  assert.deepEqual(locationOf(headersRecord(['Location', ' '])), { kind: 'none' });
  assert.deepEqual(locationOf({}), { kind: 'none' });
  // A raw UTF-8 Location (one character a byte) is read as UTF-8.
  assert.deepEqual(locationOf(headersRecord(['Location', Buffer.from('/café', 'utf8').toString('latin1')])), { kind: 'one', text: '/café' });
});

test('statusLineOf: the HTTP version the server wrote, of the head with that status, past interim heads', () => {
  const received = Buffer.from('HTTP/1.1 103 Early\r\nLink: </s.css>\r\n\r\nHTTP/1.0 200 OK\r\nX: 1\r\n\r\nbody', 'latin1');
  assert.equal(statusLineOf(received, 200)?.httpVersion, 'HTTP/1.0');
  assert.equal(statusLineOf(received, 200)?.reasonPhrase.toString('latin1'), 'OK');
  assert.equal(statusLineOf(received, 103)?.httpVersion, 'HTTP/1.1');
  assert.equal(statusLineOf(received, 404), null);
  assert.equal(buildResponseHead(200, 'OK', ['X', '1'], 'HTTP/1.0').toString('latin1'), 'HTTP/1.0 200 OK\r\nX: 1\r\n\r\n');
});
